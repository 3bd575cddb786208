// Sets of per-rank traces with planted stragglers, for the tests, the
// benchmarks and the Dask path's CI run. Each rank is a Kineto-like trace
// of one synchronous data-parallel job: per step, compute kernels launched
// one by one, then an NCCL all-reduce that starts on each rank when that
// rank gets to it and ends on every rank when the last one has arrived,
// then a synchronize. Every rank shares one clock, so the latest arrival
// decides the step. Two kinds of straggler can be planted:
//   launch gaps   one rank launches its compute kernels further apart in one
//                 step: its GPU waits for the CPU between kernels
//   late          one rank does extra CPU work before the all-reduce in one step
// Everything is deterministic (no random numbers): a test can work out
// every figure from the options.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gapscope::bench {

struct RankSetSpec {
  int ranks = 8;
  int steps = 10;           // ProfilerStep#1 .. #steps
  int kernelsPerStep = 20;  // compute kernels per step
  std::int64_t kernelNs = 20000;        // each compute kernel
  std::int64_t launchSpacingNs = 8000;  // CPU time from one launch call to the next
  std::int64_t launchNs = 4000;         // duration of a launch call
  std::int64_t transferNs = 50000;      // the all-reduce after the last rank arrived
  // Planted launch gaps: in step gapStep, rank gapRank's launches are this
  // much further apart (-1: none).
  int gapRank = -1;
  int gapStep = -1;
  std::int64_t extraSpacingNs = 30000;
  // Planted late arrival: in step lateStep, rank lateRank does lateNs of CPU
  // work ("slow_cpu_work") before launching the all-reduce (-1: none).
  int lateRank = -1;
  int lateStep = -1;
  std::int64_t lateNs = 2000000;
  // Planted start-up: in step 1, rank warmUpRank does warmUpNs of CPU work
  // before the all-reduce, so every rank's step 1 is long (-1: none).
  int warmUpRank = -1;
  std::int64_t warmUpNs = 20000000;
  // The steps' annotation: "" writes ProfilerStep#N; a name writes that
  // name for every step, an iteration marker (steps.h) whose steps run from
  // one occurrence to the next, so the set has steps - 1 of them.
  std::string marker;
  bool gzip = false;
  bool distributedInfo = true;  // else the rank is only in the file name
};

// Chooses `steps` so that each rank's file is about `megabytes` of JSON.
void sizeRanksTo(RankSetSpec& spec, double megabytes);

// Writes rank-<r>.json (or .json.gz) for every rank into `directory`
// (made if missing) and returns the paths. Throws std::runtime_error.
std::vector<std::string> writeRankSet(const std::string& directory, const RankSetSpec& spec);

// When the all-reduce of `step` starts on `rank` (ns on the shared clock),
// and when it ends on every rank: what a test compares the analysis with.
std::int64_t allReduceStart(const RankSetSpec& spec, int rank, int step);
std::int64_t allReduceEnd(const RankSetSpec& spec, int step);
// The CPU duration of ProfilerStep#step (the same on every rank).
std::int64_t stepTime(const RankSetSpec& spec, int step);

}  // namespace gapscope::bench
