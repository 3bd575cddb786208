// gapscope-bench-ranks DIR|FILES... [--repeat N] [--threads N]
//
// Times opening a set of rank traces (read, analyse, keep the tables)
// against opening its first rank alone, in the same run, interleaved N
// times (median); and what the kept tables cost in memory: the resident
// heap's growth over the load (loadRankSet ends with malloc_trim) against
// the tables' own size, measured first, in a process that has loaded nothing. Numbers and method: docs/ranks.md.
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>
#include <string>
#include <vector>

#include "gapscope/io/heap_setup.h"
#include "gapscope/ranks/rank_set.h"

namespace {

using Clock = std::chrono::steady_clock;

// Anonymous resident memory (the heap): file pages of traces read through
// mmap are not the process's to keep, and the kernel counts them apart.
double residentMb() {
  std::ifstream status("/proc/self/status");
  std::string key;
  double kb = 0;
  while (status >> key) {
    if (key == "RssAnon:") {
      status >> kb;
      break;
    }
  }
  return kb / 1024.0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[(v.size() - 1) / 2];
}

double timeLoad(const std::vector<std::string>& files, const gapscope::ranks::RankSetOptions& options,
                gapscope::ranks::RankSet* keep = nullptr) {
  const auto start = Clock::now();
  gapscope::ranks::RankSet set = gapscope::ranks::loadRankSet(files, options);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (!set.errors.empty()) std::fprintf(stderr, "error: %s\n", set.errors.front().message.c_str());
  if (keep) *keep = std::move(set);
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  gapscope::io::setUpHeap(argv);  // as gapscope and gapscope-cli do
  std::vector<std::string> args;
  int repeat = 3;
  gapscope::ranks::RankSetOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc) repeat = std::max(1, std::stoi(argv[++i]));
    else if (a == "--threads" && i + 1 < argc) options.threads = std::stoi(argv[++i]);
    else args.push_back(a);
  }
  if (args.empty()) {
    std::fputs("usage: gapscope-bench-ranks DIR|FILES... [--repeat N] [--threads N]\n", stderr);
    return 2;
  }
  const std::vector<std::string> files = gapscope::ranks::rankFiles(args);
  // Memory first, in a process that has loaded nothing yet: later loads
  // reuse pages earlier ones freed, which would hide the growth.
  const double before = residentMb();
  gapscope::ranks::RankSet kept;
  timeLoad(files, options, &kept);
  const double grown = residentMb() - before;
  const struct mallinfo2 heap = mallinfo2();
  std::vector<double> one;
  std::vector<double> all;
  int concurrency = 0;
  for (int r = 0; r < repeat; ++r) {
    one.push_back(timeLoad({files.front()}, options));
    gapscope::ranks::RankSet set;
    all.push_back(timeLoad(files, options, &set));
    concurrency = set.concurrency;
  }
  double tablesMb = 0;
  for (const auto& t : kept.tables) tablesMb += static_cast<double>(t.memoryBytes()) / 1048576.0;
  std::printf("ranks %zu, cores %d, read at once %d\n", files.size(), gapscope::io::usableCores(), concurrency);
  std::printf("one rank: %.3f s (median of %d)\n", median(one), repeat);
  std::printf("all ranks: %.3f s (median of %d), %.2fx one rank\n", median(all), repeat, median(all) / median(one));
  std::printf("kept tables: %.3f MB; resident heap grew %.3f MB over the load (%.2fx the tables)\n", tablesMb, grown,
              tablesMb > 0 ? grown / tablesMb : 0.0);
  std::printf("malloc after the load: %.1f MB in use, %.1f MB free in its arenas\n",
              static_cast<double>(heap.uordblks) / 1048576.0, static_cast<double>(heap.fordblks) / 1048576.0);
  return 0;
}
