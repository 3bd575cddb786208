// Fuzzes the report writers on whatever loads: the report in every format,
// the comparison of the trace with itself, and the Chrome JSON writer,
// whose output must read back to the same number of slices.
#include <cstdio>
#include <cstdlib>

#include "fuzz_input.h"
#include "gapscope/compare/compare.h"
#include "gapscope/report/comparison_report.h"
#include "gapscope/report/report.h"
#include "gapscope/writer/chrome_writer.h"

using namespace gapscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::shared_ptr<const Trace> trace = fuzz::loadForFuzz(fuzz::asText(data, size));
  if (!trace) return 0;
  analysis::TraceAnalysis a(trace);
  fuzz::requireInvariants(a);

  const report::Report r = report::buildReport(a);
  (void)report::renderHtml(r);
  (void)report::renderMarkdown(r);
  (void)report::renderJson(r);
  (void)report::renderCsv(r);

  analysis::TraceAnalysis b(trace);
  const compare::Comparison comparison = compare::compareTraces(a, b);
  for (const compare::RunFigures& run : comparison.runs) {
    // A share is a share, and a gap is no longer than the trace.
    if (!(run.gpuBusyPct >= 0.0 && run.gpuBusyPct <= 100.0) || run.largestGap.dur < 0 ||
        static_cast<double>(run.largestGap.dur) >
            static_cast<double>(trace->maxTime()) - static_cast<double>(trace->minTime())) {
      std::fprintf(stderr, "absurd run figure: GPU busy %g %%, largest gap %lld ns\n", run.gpuBusyPct,
                   static_cast<long long>(run.largestGap.dur));
      std::abort();
    }
  }
  const report::ComparisonReport c = report::buildComparisonReport(comparison);
  (void)report::renderComparisonHtml(c);
  (void)report::renderComparisonMarkdown(c);
  (void)report::renderComparisonCsv(c);

  const std::string json = writer::chromeTraceJson(*trace);
  io::LoadResult back = io::parseChromeTrace(json, {}, "written.json");
  if (!back.ok() || !back.trace || back.trace->slices.size() != trace->slices.size()) {
    std::fprintf(stderr, "the written trace does not read back: %s (%zu slices, wrote %zu)\n", back.error.c_str(),
                 back.trace ? back.trace->slices.size() : 0, trace->slices.size());
    std::abort();
  }
  return 0;
}
