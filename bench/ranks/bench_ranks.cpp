// gapscope-bench-ranks DIR|FILES... [--repeat N] [--threads N]
//
// Times opening a set of rank traces (read, analyse, keep the tables)
// against opening its first rank alone, in the same run, interleaved N
// times (median); and what the kept tables cost in memory: the resident
// set's growth over the load (after malloc_trim) against the tables' own
// size. Numbers and method: docs/ranks.md.
#include <malloc.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>
#include <string>
#include <vector>

#include "gapscope/ranks/rank_set.h"

namespace {

using Clock = std::chrono::steady_clock;

double residentMb() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0;
  long resident = 0;
  statm >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / 1048576.0;
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
  std::vector<double> one;
  std::vector<double> all;
  int concurrency = 0;
  for (int r = 0; r < repeat; ++r) {
    one.push_back(timeLoad({files.front()}, options));
    gapscope::ranks::RankSet set;
    all.push_back(timeLoad(files, options, &set));
    concurrency = set.concurrency;
  }
  malloc_trim(0);
  const double before = residentMb();
  gapscope::ranks::RankSet kept;
  timeLoad(files, options, &kept);
  malloc_trim(0);
  const double grown = residentMb() - before;
  double tablesMb = 0;
  for (const auto& t : kept.tables) tablesMb += static_cast<double>(t.memoryBytes()) / 1048576.0;
  cpu_set_t cores;
  CPU_ZERO(&cores);
  sched_getaffinity(0, sizeof cores, &cores);
  std::printf("ranks %zu, cores %d, read at once %d\n", files.size(), CPU_COUNT(&cores), concurrency);
  std::printf("one rank: %.3f s (median of %d)\n", median(one), repeat);
  std::printf("all ranks: %.3f s (median of %d), %.2fx one rank\n", median(all), repeat, median(all) / median(one));
  std::printf("kept tables: %.3f MB; resident set grew %.3f MB over the load (%.2fx the tables)\n", tablesMb, grown,
              tablesMb > 0 ? grown / tablesMb : 0.0);
  return 0;
}
