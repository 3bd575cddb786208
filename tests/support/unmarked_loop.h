// Counts made from the JSON alone for the training script with no step
// marks (tests/data/h100-user/, PROVENANCE.md): where its data loader's
// next() calls start, the kernels launched between one and the next, and
// the program's own iteration times.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "json_time.h"
#include "read_text.h"

namespace gapscope::testing {

inline constexpr const char* kDataLoaderNext = "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__";

// The starts of the data loader's next() annotations (sorted) and, per
// period from one to the next, the GPU kernels whose launch call (matched
// by args.correlation) began in it.
struct UnmarkedLoop {
  std::vector<std::int64_t> nextStarts;
  std::vector<std::uint64_t> kernels;
};

inline UnmarkedLoop unmarkedLoopFromJson(const std::string& path) {
  const nlohmann::json j = nlohmann::json::parse(readMaybeGzipped(path));
  UnmarkedLoop loop;
  std::map<std::int64_t, std::int64_t> launchStart;  // correlation -> launch call start
  std::vector<std::int64_t> kernelCorrelations;
  for (const auto& e : j["traceEvents"]) {
    if (e.value("ph", "") != "X") continue;
    const std::string cat = e.value("cat", "");
    if (cat == "user_annotation" && e.value("name", "") == kDataLoaderNext) loop.nextStarts.push_back(exactNs(e["ts"]));
    if (!e.contains("args") || !e["args"].contains("correlation")) continue;
    const std::int64_t corr = e["args"]["correlation"].get<std::int64_t>();
    if (cat == "cuda_runtime" || cat == "cuda_driver") launchStart[corr] = exactNs(e["ts"]);
    if (cat == "kernel") kernelCorrelations.push_back(corr);
  }
  std::sort(loop.nextStarts.begin(), loop.nextStarts.end());
  if (loop.nextStarts.size() < 2) return loop;
  loop.kernels.assign(loop.nextStarts.size() - 1, 0);
  for (std::int64_t corr : kernelCorrelations) {
    const std::int64_t t = launchStart.at(corr);
    auto it = std::upper_bound(loop.nextStarts.begin(), loop.nextStarts.end(), t);
    if (it == loop.nextStarts.begin() || it == loop.nextStarts.end()) continue;
    ++loop.kernels[static_cast<std::size_t>(it - loop.nextStarts.begin() - 1)];
  }
  return loop;
}

// The program's own iteration times of `run` in iter_ms.txt, ms.
inline std::vector<double> programIterationsMs(const std::string& iterMsPath, const std::string& run) {
  std::istringstream in(readMaybeGzipped(iterMsPath));
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    if (name != run) continue;
    std::vector<double> ms;
    for (double v; fields >> v;) ms.push_back(v);
    return ms;
  }
  return {};
}

}  // namespace gapscope::testing
