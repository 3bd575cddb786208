#include "rank_set_generator.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace gapscope::bench {
namespace {

constexpr std::int64_t kFirstStepNs = 1'000'000'000'000;  // 1000 s: far from 0, like a real clock
constexpr std::int64_t kStepLeadNs = 2000;    // step annotation start -> first launch
constexpr std::int64_t kQueueNs = 3000;       // launch call end -> earliest kernel start
constexpr std::int64_t kCallInOpNs = 1000;    // op start -> its launch call
constexpr std::int64_t kSyncTailNs = 2000;    // all-reduce end -> synchronize returns
constexpr std::int64_t kStepTailNs = 1000;    // synchronize returns -> step annotation ends
constexpr std::int64_t kBetweenStepsNs = 5000;
constexpr int kComputeStream = 7;
constexpr int kNcclStream = 20;
const char* const kComputeKernel = "void gen::elementwise_kernel<128, 4>(int, gen::MulFunctor<float>)";
const char* const kNcclKernel = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

std::int64_t spacing(const RankSetSpec& spec, int rank, int step) {
  return spec.launchSpacingNs + (rank == spec.gapRank && step == spec.gapStep ? spec.extraSpacingNs : 0);
}
std::int64_t lateWork(const RankSetSpec& spec, int rank, int step) {
  return (rank == spec.lateRank && step == spec.lateStep ? spec.lateNs : 0) +
         (rank == spec.warmUpRank && step == 1 ? spec.warmUpNs : 0);
}
// One launch: the op around it starts at `opStart`; the call ends at the returned time.
std::int64_t launchEnd(const RankSetSpec& spec, std::int64_t opStart) { return opStart + kCallInOpNs + spec.launchNs; }
std::int64_t opDuration(const RankSetSpec& spec) { return kCallInOpNs + spec.launchNs + 2000; }

// Where one rank's compute phase of a step ends, on the CPU and on the GPU.
struct ComputeEnd {
  std::int64_t cpu = 0;
  std::int64_t gpu = 0;
};
ComputeEnd computeEnd(const RankSetSpec& spec, int rank, int step, std::int64_t stepStart) {
  const std::int64_t first = stepStart + kStepLeadNs;
  std::int64_t gpu = stepStart;
  for (int k = 0; k < spec.kernelsPerStep; ++k) {
    const std::int64_t opStart = first + k * spacing(spec, rank, step);
    gpu = std::max(launchEnd(spec, opStart) + kQueueNs, gpu) + spec.kernelNs;
  }
  return {first + spec.kernelsPerStep * spacing(spec, rank, step) + lateWork(spec, rank, step), gpu};
}
std::int64_t arrival(const RankSetSpec& spec, int rank, int step, std::int64_t stepStart) {
  const ComputeEnd end = computeEnd(spec, rank, step, stepStart);
  return std::max(launchEnd(spec, end.cpu) + kQueueNs, end.gpu);
}
std::int64_t stepStartOf(const RankSetSpec& spec, int step);
std::int64_t endOf(const RankSetSpec& spec, int step, std::int64_t stepStart) {
  std::int64_t latest = 0;
  for (int r = 0; r < spec.ranks; ++r) latest = std::max(latest, arrival(spec, r, step, stepStart));
  return latest + spec.transferNs;
}
std::int64_t stepStartOf(const RankSetSpec& spec, int step) {
  std::int64_t start = kFirstStepNs;
  for (int s = 1; s < step; ++s) start = endOf(spec, s, start) + kSyncTailNs + kStepTailNs + kBetweenStepsNs;
  return start;
}

std::string us(std::int64_t ns) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ns / 1000), static_cast<long long>(ns % 1000));
  return buf;
}

class Writer {
 public:
  Writer(const std::string& path, bool gzip) : path_(path) {
    if (gzip) gz_ = gzopen(path.c_str(), "wb6");
    else file_ = std::fopen(path.c_str(), "wb");
    if (!gz_ && !file_) throw std::runtime_error("cannot write " + path);
  }
  ~Writer() {
    if (gz_) gzclose(gz_);
    if (file_) std::fclose(file_);
  }
  void put(const std::string& s) {
    buf_ += s;
    if (buf_.size() > (1u << 20)) flush();
  }
  void close() {
    flush();
    const bool ok = gz_ ? gzclose(gz_) == Z_OK : std::fclose(file_) == 0;
    gz_ = nullptr;
    file_ = nullptr;
    if (!ok) throw std::runtime_error("cannot write " + path_);
  }

 private:
  void flush() {
    if (buf_.empty()) return;
    const bool ok = gz_ ? gzwrite(gz_, buf_.data(), static_cast<unsigned>(buf_.size())) > 0
                        : std::fwrite(buf_.data(), 1, buf_.size(), file_) == buf_.size();
    if (!ok) throw std::runtime_error("cannot write " + path_);
    buf_.clear();
  }
  std::string path_;
  gzFile gz_ = nullptr;
  FILE* file_ = nullptr;
  std::string buf_;
};

// The events of one rank, in the order a profiler writes them (by start).
class RankTrace {
 public:
  RankTrace(const RankSetSpec& spec, int rank, Writer& out)
      : spec_(spec), rank_(rank), out_(out), pid_(10000 + rank), device_(rank % 8) {}

  void write() {
    out_.put("{\n  \"schemaVersion\": 1,\n");
    if (spec_.distributedInfo) {
      out_.put("  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": " + std::to_string(rank_) +
               ", \"world_size\": " + std::to_string(spec_.ranks) + "},\n");
    }
    out_.put("  \"traceEvents\": [\n");
    metadata();
    std::int64_t start = kFirstStepNs;
    for (int s = 1; s <= spec_.steps; ++s) {
      const std::int64_t end = endOf(spec_, s, start);
      step(s, start, end);
      start = end + kSyncTailNs + kStepTailNs + kBetweenStepsNs;
    }
    out_.put("  {\"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\", \"pid\": \"\", \"tid\": \"\", \"ts\": " +
             us(start) + "}\n  ]\n}\n");
  }

 private:
  void step(int s, std::int64_t start, std::int64_t allReduceEnd) {
    const std::int64_t stepEnd = allReduceEnd + kSyncTailNs + kStepTailNs;
    cpu("user_annotation", spec_.marker.empty() ? "ProfilerStep#" + std::to_string(s) : spec_.marker, start,
        stepEnd - start);
    const std::int64_t first = start + kStepLeadNs;
    std::int64_t gpu = start;
    for (int k = 0; k < spec_.kernelsPerStep; ++k) {
      const std::int64_t opStart = first + k * spacing(spec_, rank_, s);
      const std::int64_t kernelStart = std::max(launchEnd(spec_, opStart) + kQueueNs, gpu);
      launchUnder("aten::mul", opStart, kComputeKernel, kComputeStream, kernelStart, spec_.kernelNs);
      gpu = kernelStart + spec_.kernelNs;
    }
    std::int64_t cpuAt = first + spec_.kernelsPerStep * spacing(spec_, rank_, s);
    if (const std::int64_t late = lateWork(spec_, rank_, s); late > 0) {
      cpu("cpu_op", "slow_cpu_work", cpuAt, late);
      cpuAt += late;
    }
    const std::int64_t reduceStart = arrival(spec_, rank_, s, start);
    launchUnder("nccl:all_reduce", cpuAt, kNcclKernel, kNcclStream, reduceStart, allReduceEnd - reduceStart);
    const std::int64_t syncStart = cpuAt + opDuration(spec_) + 1000;
    runtime("cudaDeviceSynchronize", syncStart, allReduceEnd + kSyncTailNs - syncStart, -1);
  }

  void launchUnder(const char* op, std::int64_t opStart, const char* kernel, int stream, std::int64_t kernelStart,
                   std::int64_t kernelDur) {
    const std::int64_t correlation = nextCorrelation_++;
    cpu("cpu_op", op, opStart, opDuration(spec_));
    runtime("cudaLaunchKernel", opStart + kCallInOpNs, spec_.launchNs, correlation);
    out_.put("  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + std::string(kernel) + "\", \"pid\": " +
             std::to_string(device_) + ", \"tid\": " + std::to_string(stream) + ", \"ts\": " + us(kernelStart) +
             ", \"dur\": " + us(kernelDur) + ", \"args\": {\"device\": " + std::to_string(device_) +
             ", \"stream\": " + std::to_string(stream) + ", \"correlation\": " + std::to_string(correlation) +
             ", \"grid\": [128, 1, 1], \"block\": [128, 1, 1]}},\n");
  }
  void runtime(const char* name, std::int64_t ts, std::int64_t dur, std::int64_t correlation) {
    std::string args = correlation >= 0 ? ", \"args\": {\"correlation\": " + std::to_string(correlation) + "}" : "";
    out_.put("  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"" + std::string(name) + "\", \"pid\": " +
             std::to_string(pid_) + ", \"tid\": " + std::to_string(pid_) + ", \"ts\": " + us(ts) + ", \"dur\": " +
             us(dur) + args + "},\n");
  }
  void cpu(const char* cat, const std::string& name, std::int64_t ts, std::int64_t dur) {
    out_.put("  {\"ph\": \"X\", \"cat\": \"" + std::string(cat) + "\", \"name\": \"" + name + "\", \"pid\": " +
             std::to_string(pid_) + ", \"tid\": " + std::to_string(pid_) + ", \"ts\": " + us(ts) + ", \"dur\": " +
             us(dur) + "},\n");
  }
  void metadata() {
    const std::string pid = std::to_string(pid_);
    out_.put("  {\"name\": \"process_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": " + pid + ", \"tid\": 0, \"args\": "
             "{\"name\": \"python3\"}},\n");
    out_.put("  {\"name\": \"process_labels\", \"ph\": \"M\", \"ts\": 0, \"pid\": " + pid + ", \"tid\": 0, \"args\": "
             "{\"labels\": \"rank " + std::to_string(rank_) + "\"}},\n");
  }

  const RankSetSpec& spec_;
  int rank_;
  Writer& out_;
  int pid_;
  int device_;
  std::int64_t nextCorrelation_ = 1;
};

}  // namespace

void sizeRanksTo(RankSetSpec& spec, double megabytes) {
  // About 545 bytes per launch (op, call, kernel) as written above.
  const double perStep = 545.0 * (spec.kernelsPerStep + 1) + 400.0;
  spec.steps = std::max(1, static_cast<int>(megabytes * 1e6 / perStep));
}

std::vector<std::string> writeRankSet(const std::string& directory, const RankSetSpec& spec) {
  std::filesystem::create_directories(directory);
  std::vector<std::string> paths;
  for (int r = 0; r < spec.ranks; ++r) {
    const std::string path =
        (std::filesystem::path(directory) / ("rank-" + std::to_string(r) + (spec.gzip ? ".json.gz" : ".json")))
            .string();
    Writer out(path, spec.gzip);
    RankTrace(spec, r, out).write();
    out.close();
    paths.push_back(path);
  }
  return paths;
}

std::int64_t allReduceStart(const RankSetSpec& spec, int rank, int step) {
  return arrival(spec, rank, step, stepStartOf(spec, step));
}
std::int64_t allReduceEnd(const RankSetSpec& spec, int step) { return endOf(spec, step, stepStartOf(spec, step)); }
std::int64_t stepTime(const RankSetSpec& spec, int step) {
  return allReduceEnd(spec, step) + kSyncTailNs + kStepTailNs - stepStartOf(spec, step);
}

}  // namespace gapscope::bench
