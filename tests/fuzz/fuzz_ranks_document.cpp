// Fuzzes the ranks document reader (ranks/ranks_document.h): the bytes as a
// document; one that reads is compared with itself and with an empty run,
// and every figure of the comparison must be sane (a share within 0 to
// 100 %, no negative time), which UBSan's overflow checks back up.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "gapscope/ranks/ranks_document.h"
#include "gapscope/ranks/set_compare.h"

using namespace gapscope;
using namespace gapscope::ranks;

namespace {

void requireSane(const SetFigures& f) {
  bool sane = f.gpuBusyPct >= 0.0 && f.gpuBusyPct <= 100.0 && f.stepTimeNs >= 0 && f.collectivePerStepNs >= 0 &&
              f.waitPerStepNs >= 0 && f.waitPerStepNs <= f.collectivePerStepNs;
  for (TimeNs idle : f.idlePerStep.ns) sane = sane && idle >= 0;
  if (!sane) {
    std::fprintf(stderr, "absurd job figure: GPU busy %g %%, step %lld ns, wait %lld of %lld ns a step\n",
                 f.gpuBusyPct, static_cast<long long>(f.stepTimeNs), static_cast<long long>(f.waitPerStepNs),
                 static_cast<long long>(f.collectivePerStepNs));
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  RanksDocument document;
  try {
    document = parseRanksDocument(text, "fuzz.json");
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).rfind("fuzz.json:", 0) != 0) {
      std::fprintf(stderr, "a refusal that does not name the file: %s\n", e.what());
      std::abort();
    }
    return 0;
  }
  for (const RankSetComparison& c :
       {compareRankSets(document.analysis, document.analysis), compareRankSets(document.analysis, RanksAnalysis{})}) {
    requireSane(c.runs[0]);
    requireSane(c.runs[1]);
    if (c.verdict.empty() || c.speedup < 0) std::abort();
  }
  return 0;
}
