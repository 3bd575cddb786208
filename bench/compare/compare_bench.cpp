// gapscope-bench-compare A B [--repeat N]
//
// Times what `gapscope-cli diff A B` does, in its two parts: loading both
// traces (two threads, one per file, each reader with its own two parsing
// threads) and comparing them (compareTraces: both runs' analyses, side by
// side, then the matching and the verdict). Prints each run and the best
// of N; the comparison's figure is the time beyond loading both. For a
// baseline it also loads A alone, so the parallel load can be judged
// against one load. Generate inputs with gapscope-gen-trace (bench/load).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "gapscope/compare/compare.h"
#include "gapscope/io/chrome_reader.h"

using namespace gapscope;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::shared_ptr<const Trace> load(const char* path) {
  io::LoadResult r = io::loadChromeTrace(path);
  if (!r.ok() || !r.trace) {
    std::fprintf(stderr, "%s\n", r.error.c_str());
    std::exit(1);
  }
  return std::make_shared<const Trace>(std::move(*r.trace));
}

struct Times {
  double loadOne = 0;
  double loadBoth = 0;
  double compare = 0;
};

Times runOnce(const char* a, const char* b) {
  Times t;
  auto t0 = Clock::now();
  load(a);
  t.loadOne = since(t0);
  t0 = Clock::now();
  std::shared_ptr<const Trace> tb;
  std::thread other([&] { tb = load(b); });
  std::shared_ptr<const Trace> ta = load(a);
  other.join();
  t.loadBoth = since(t0);
  const analysis::TraceAnalysis ra(ta);
  const analysis::TraceAnalysis rb(tb);
  t0 = Clock::now();
  const compare::Comparison c = compare::compareTraces(ra, rb);
  t.compare = since(t0);
  std::printf("  load A %.3f s, load A and B side by side %.3f s, compare %.3f s (%zu kernel rows, %zu op rows)\n",
              t.loadOne, t.loadBoth, t.compare, c.kernels.size(), c.ops.size());
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: gapscope-bench-compare A B [--repeat N]\n");
    return 2;
  }
  int repeat = 3;
  for (int i = 3; i < argc; ++i)
    if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::atoi(argv[++i]);
  Times best{1e9, 1e9, 1e9};
  for (int r = 0; r < repeat; ++r) {
    const Times t = runOnce(argv[1], argv[2]);
    best.loadOne = std::min(best.loadOne, t.loadOne);
    best.loadBoth = std::min(best.loadBoth, t.loadBoth);
    best.compare = std::min(best.compare, t.compare);
  }
  std::printf("best of %d: load A %.3f s; load both %.3f s (%.2fx one load); compare beyond loading %.3f s\n", repeat,
              best.loadOne, best.loadBoth, best.loadBoth / best.loadOne, best.compare);
  return 0;
}
