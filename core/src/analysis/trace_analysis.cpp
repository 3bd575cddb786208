#include "gapscope/analysis/trace_analysis.h"

#include <future>
#include <system_error>

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

void TraceAnalysis::computeAll() const {
  std::future<void> tables;
  try {
    tables = std::async(std::launch::async, [this] {
      ops();
      kernels();
    });
  } catch (const std::system_error&) {
    // No thread to be had: everything below runs here instead.
  }
  gaps();
  summary();
  if (tables.valid()) tables.get();
  ops();
  kernels();
}

}  // namespace gapscope::analysis
