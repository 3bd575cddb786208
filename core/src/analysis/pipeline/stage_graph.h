// The one executor of the analyses: named stages with the stages they need,
// run as soon as those are done, on a few threads of its own (the caller's
// thread is one of them). Analyses are small graphs (a dozen stages) and
// each stage is milliseconds to seconds of work, so a mutex-and-condition
// queue is all the scheduling needed; oneTBB's work stealing would buy
// nothing here and add a dependency (docs/DEVELOPING.md says more).
//
// A stage sees the results of the stages it names as inputs and nothing
// else; it writes only its own outputs. Results are the same for any
// thread count. An exception thrown by a stage stops new stages from
// starting and is rethrown by run() once the running ones are done.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "gapscope/analysis/stage_observer.h"

namespace gapscope::analysis::pipeline {

class StageGraph {
 public:
  using StageId = std::size_t;
  // `name` must outlive the run (a string literal).
  StageId add(const char* name, std::vector<StageId> needs, std::function<void()> work);
  // Runs every stage once, each after the stages it needs, on up to
  // `threads` threads (1: all on the caller's thread, in the order added).
  void run(int threads, StageObserver* observer = nullptr);

 private:
  struct Stage {
    const char* name;
    std::vector<StageId> needs;
    std::function<void()> work;
  };
  std::vector<Stage> stages_;
};

}  // namespace gapscope::analysis::pipeline
