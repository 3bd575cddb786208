// Shared by the fuzz targets: how a fuzzer's bytes become a trace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gapscope/analysis/invariants.h"
#include "gapscope/analysis/trace_analysis.h"
#include "gapscope/io/chrome_reader.h"

namespace gapscope::fuzz {

inline std::string_view asText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Parses the bytes as a trace with small chunks (so the cutting and carrying
// run on small inputs) and a small event window; nullptr when nothing loads.
inline std::shared_ptr<const Trace> loadForFuzz(std::string_view text) {
  io::LoadOptions options;
  options.chunkBytes = 256;
  options.maxEventBytes = 4096;
  io::LoadResult r = io::parseChromeTrace(text, options, "fuzz.json");
  if (!r.trace) return nullptr;
  return std::make_shared<const Trace>(std::move(*r.trace));
}

// Aborts (a crash the fuzzer records) when an analysis breaks an invariant.
inline void requireInvariants(const analysis::TraceAnalysis& analysis) {
  const std::vector<std::string> broken = analysis::checkInvariants(analysis);
  if (broken.empty()) return;
  for (const std::string& line : broken) std::fprintf(stderr, "invariant broken: %s\n", line.c_str());
  std::abort();
}

}  // namespace gapscope::fuzz
