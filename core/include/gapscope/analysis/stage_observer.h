// Watching an analysis run: the analyses are pipelines of named stages (see
// docs/DEVELOPING.md), and an observer hears when each stage ends and what
// it cost. Benchmarks use it to print where the time goes; the stages
// themselves hold no timing code. With no observer nothing is measured.
#pragma once

namespace gapscope::analysis {

struct StageTiming {
  const char* name = "";        // the stage's name, e.g. "device gaps"
  double wallSeconds = 0;       // from its start to its end
  double threadCpuSeconds = 0;  // CPU time of the thread that ran it (0 where unknown)
};

class StageObserver {
 public:
  virtual ~StageObserver() = default;
  // Called on the thread that ran the stage, possibly on several threads at
  // once: implementations synchronise themselves.
  virtual void stageFinished(const StageTiming& timing) = 0;
};

}  // namespace gapscope::analysis
