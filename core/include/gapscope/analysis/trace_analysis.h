// Everything gapscope works out about one loaded trace, held beside it:
// GPU busy time, the summary, the gap analysis, the operator and kernel
// tables. Each part is computed once, the first time it is asked for, and
// then shared by whoever asks (the app's views, File > Export Report, the
// CLI's report command): nothing runs an analysis a second time.
//
// Thread-safe: parts may be asked for from any thread; a part asked for
// while another thread computes it waits for that result. The trace is
// held by a shared pointer, so the analysis keeps it alive.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>

#include "gapscope/analysis/gap_list.h"
#include "gapscope/analysis/gaps.h"
#include "gapscope/analysis/gpu_busy.h"
#include "gapscope/analysis/kernel_table.h"
#include "gapscope/analysis/ops_table.h"
#include "gapscope/analysis/stage_observer.h"
#include "gapscope/analysis/summary.h"
#include "gapscope/calltree/call_tree.h"
#include "gapscope/memory/memory.h"
#include "gapscope/model/trace.h"

namespace gapscope::analysis {

struct AnalysisOptions {
  GapOptions gaps;
  OpTableOptions ops;
  int rankingThreads = 1;  // rankedGaps()'s sort
};

class TraceAnalysis {
 public:
  explicit TraceAnalysis(std::shared_ptr<const Trace> trace, AnalysisOptions options = {});
  TraceAnalysis(const TraceAnalysis&) = delete;
  TraceAnalysis& operator=(const TraceAnalysis&) = delete;

  const Trace& trace() const { return *trace_; }
  const std::shared_ptr<const Trace>& sharedTrace() const { return trace_; }
  const AnalysisOptions& options() const { return options_; }

  const GpuBusy& busy() const;
  const TraceSummary& summary() const;
  const GapAnalysis& gaps() const;
  const OpTable& ops() const;
  const KernelTable& kernels() const;
  const memory::MemoryAnalysis& memory() const;
  // Not computed by computeAll (most views never ask for it): the first to
  // ask builds it. Profiler steps merged (CallTreeOptions::mergeSteps).
  const calltree::CallTree& callTree() const;
  // The options of that tree (steps merged), for a tree of a range built
  // the same way.
  static calltree::CallTreeOptions callTreeOptions();
  // Every gap a gap list can show, ranked (rankAllGaps on
  // options().rankingThreads): a viewer filters it by its options (listRanked)
  // instead of sorting on its GUI thread. Not computed by computeAll;
  // timeline::prepareForViewing asks for it.
  const std::vector<RankedGap>& rankedGaps() const;

  // Computes every part but the call tree not computed yet, now, as stages
  // of one pipeline on the calling thread plus one more.
  void computeAll(StageObserver* observer = nullptr) const;

  // How many parts have been computed so far (at most 8): tests use it to
  // show that a consumer reused the held results.
  int partsComputed() const { return partsComputed_.load(); }

 private:
  template <typename T>
  struct Part {
    std::once_flag once;
    std::unique_ptr<T> value;
  };
  template <typename T, typename Make>
  const T& get(Part<T>& part, Make make) const;

  std::shared_ptr<const Trace> trace_;
  AnalysisOptions options_;
  mutable Part<GpuBusy> busy_;
  mutable Part<TraceSummary> summary_;
  mutable Part<GapAnalysis> gaps_;
  mutable Part<OpTable> ops_;
  mutable Part<KernelTable> kernels_;
  mutable Part<memory::MemoryAnalysis> memory_;
  mutable Part<calltree::CallTree> callTree_;
  mutable Part<std::vector<RankedGap>> rankedGaps_;
  mutable std::atomic<int> partsComputed_{0};
};

}  // namespace gapscope::analysis
