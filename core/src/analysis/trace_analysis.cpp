#include "gapscope/analysis/trace_analysis.h"

#include <cassert>
#include <cstdio>

#include "analysis/pipeline/stage_graph.h"
#include "gapscope/analysis/invariants.h"

namespace gapscope::analysis {

TraceAnalysis::TraceAnalysis(std::shared_ptr<const Trace> trace, AnalysisOptions options)
    : trace_(std::move(trace)), options_(std::move(options)) {}

template <typename T, typename Make>
const T& TraceAnalysis::get(Part<T>& part, Make make) const {
  std::call_once(part.once, [&] {
    part.value = std::make_unique<T>(make());
    ++partsComputed_;
  });
  return *part.value;
}

const GpuBusy& TraceAnalysis::busy() const {
  return get(busy_, [&] { return computeGpuBusy(*trace_); });
}

const TraceSummary& TraceAnalysis::summary() const {
  return get(summary_, [&] { return summarizeTrace(*trace_); });
}

const GapAnalysis& TraceAnalysis::gaps() const {
  return get(gaps_, [&] { return analyzeGaps(*trace_, busy(), options_.gaps); });
}

const OpTable& TraceAnalysis::ops() const {
  return get(ops_, [&] { return buildOpTable(*trace_, options_.ops); });
}

const KernelTable& TraceAnalysis::kernels() const {
  return get(kernels_, [&] { return buildKernelTable(*trace_); });
}

const memory::MemoryAnalysis& TraceAnalysis::memory() const {
  return get(memory_, [&] { return memory::analyzeMemory(*trace_); });
}

calltree::CallTreeOptions TraceAnalysis::callTreeOptions() {
  calltree::CallTreeOptions options;
  options.mergeSteps = true;
  return options;
}

const calltree::CallTree& TraceAnalysis::callTree() const {
  // Steps merged: the app's flame graph and the report read this tree, and
  // a trace of thousands of steps would otherwise draw none of them.
  return get(callTree_, [&] { return calltree::buildCallTree(*trace_, gaps(), callTreeOptions()); });
}

const std::vector<RankedGap>& TraceAnalysis::rankedGaps() const {
  return get(rankedGaps_, [&] { return rankAllGaps(gaps(), busy(), options_.rankingThreads); });
}

void TraceAnalysis::computeAll(StageObserver* observer) const {
  // The tables need nothing of the gap analysis, but the operator table and
  // the gap analysis are the two with the largest working memory: side by
  // side they made the peak of opening a 2.6 GB trace 944-961 MB (0.37x),
  // one after the other 800-816 MB (0.31x), in the same time on 2 cores
  // (they had fought for them). The operator table goes first: the gap
  // analysis's working set on top of the table is the smaller sum.
  pipeline::StageGraph graph;
  const auto busy = graph.add("gpu busy", {}, [this] { this->busy(); });
  const auto operatorTable = graph.add("operator table", {}, [this] { ops(); });
  graph.add("gap analysis", {busy, operatorTable}, [this] { gaps(); });
  graph.add("summary", {}, [this] { summary(); });
  graph.add("kernel table", {}, [this] { kernels(); });
  graph.add("memory", {}, [this] { memory(); });
  graph.run(2, observer);
#ifndef NDEBUG
  // Debug builds stop at the first analysis that breaks an invariant.
  const std::vector<std::string> broken = checkInvariants(*this);
  for (const std::string& line : broken) std::fprintf(stderr, "gapscope: invariant broken: %s\n", line.c_str());
  assert(broken.empty() && "an analysis broke an invariant (see gapscope/analysis/invariants.h)");
#endif
}

}  // namespace gapscope::analysis
