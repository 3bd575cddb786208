// The analysis tables of one rank of a distributed run: what the straggler
// analysis (stragglers.h) needs of each rank, small enough to keep for
// thousands of ranks once the rank's trace is gone. `gapscope-cli
// export-tables` writes them as gzip CSV (tables_csv.h, docs/ranks.md) and
// the Dask path (python/gapscope_dask) aggregates those files the same way.
//
// Definitions (docs/ranks.md has them with an example):
//   step        the trace's steps (analysis/steps.h); a trace without step
//               annotations is one step, number 0, spanning the whole trace;
//               its first may be a warm-up (StepStats::warmUp), which the
//               straggler analysis leaves out
//   step time   the CPU duration of the step's annotation
//   busy/idle   per device as the gap analysis counts them for the step
//               (StepStats), summed over the devices the step used
//   collective  a GPU kernel of NCCL or gloo (analysis::isCollectiveName);
//               it belongs to the step in which its
//               launch call began (the kernel's start when it has none)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gapscope/analysis/gaps.h"
#include "gapscope/analysis/trace_analysis.h"
#include "gapscope/model/types.h"

namespace gapscope::ranks {

inline constexpr std::int64_t kUnknownRank = -1;

struct RankStep {
  std::int64_t step = 0;    // ProfilerStep#N's N; annotation steps 1, 2, ...; 0: the whole trace
  TimeNs startNs = 0;       // the annotation's CPU start
  TimeNs timeNs = 0;        // the annotation's CPU duration
  TimeNs busyNs = 0;        // GPU busy, summed over devices
  TimeNs activeNs = 0;      // GPU active window, summed over devices
  analysis::IdleByCause idle;  // sums to activeNs - busyNs
  std::uint64_t kernels = 0;
  std::uint64_t launches = 0;
  std::uint64_t collectives = 0;  // collective kernels launched in the step
  TimeNs collectiveNs = 0;        // their summed durations
  bool warmUp = false;            // the trace's warm-up step (StepStats::warmUp)
};

// One collective kernel. `index` numbers a rank's collectives within a
// step in start order (0, 1, ...): the k-th collective of a step on every
// rank is taken to be the same operation.
struct RankCollective {
  std::int64_t step = 0;
  std::uint32_t index = 0;
  std::string name;    // the kernel's name
  std::string cpuOp;   // innermost cpu_op around its launch (e.g. "nccl:all_reduce"); "" if none
  std::int32_t device = -1;
  std::int64_t stream = -1;
  TimeNs startNs = 0;
  TimeNs durNs = 0;
};

struct RankKernel {
  std::string name;
  std::int64_t calls = 0;
  TimeNs totalNs = 0;
};

struct RankOp {
  std::string name;
  std::int64_t calls = 0;
  TimeNs selfCpuNs = 0;
  TimeNs cpuTotalNs = 0;
  TimeNs deviceTotalNs = 0;
};

struct RankGap {
  std::int64_t step = 0;  // the step whose CPU range holds the gap's start (-1: none)
  std::int32_t device = -1;
  std::int64_t stream = -1;  // -1: a device gap
  TimeNs startNs = 0;
  TimeNs durNs = 0;
  analysis::GapCause cause = analysis::GapCause::Other;
};

struct RankTables {
  std::int64_t rank = kUnknownRank;
  std::int64_t worldSize = 0;  // from distributedInfo; 0 when unknown
  std::string file;
  analysis::StepSource stepSource = analysis::StepSource::WholeTrace;
  std::string stepName;  // the iteration marker's name (StepSource::RepeatedAnnotation); "" otherwise
  std::vector<RankStep> steps;              // by step number
  std::vector<RankCollective> collectives;  // by step, then index
  std::vector<RankKernel> kernels;          // GPU kernels by total time, descending
  std::vector<RankOp> ops;                  // CPU operators by self CPU time, descending
  std::vector<RankGap> gaps;                // device-level gaps of >= minGapNs, in time order
  std::size_t memoryBytes() const;
};

// The rank a trace names: distributedInfo's "rank"; else the last number of
// at most 9 digits in the file's name ("rank-3.json.gz",
// "worker3.1623143089861.pt.trace.json": longer numbers are timestamps); else
// kUnknownRank, also for "pid-N.json.gz" (`record -o DIR/` names a process
// without RANK by its pid). `worldSize` gets distributedInfo's "world_size" (0 if none).
std::int64_t rankOfTrace(const std::string& distributedInfoJson, const std::string& fileName,
                         std::int64_t* worldSize = nullptr);

// The tables of one rank from its analysed trace.
RankTables buildRankTables(const analysis::TraceAnalysis& analysis, std::string file);

// The analysis options the rank tables need: gap blame on CPU ops and the
// launch list are not used, so they are off (faster on big traces).
analysis::AnalysisOptions rankAnalysisOptions();

}  // namespace gapscope::ranks
