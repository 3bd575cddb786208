// What a bundled workload is to the runner: set up once, then one step at a
// time, then (optionally) checked against a CPU reference. Steps enqueue
// their work on ctx.stream and mark each logical operation with ctx.op();
// the runner marks the steps and synchronises after each.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gapscope/gpu/records.h"

namespace gapscope::gpu::cuda {

// Host ranges on the recording clock (CUPTI's when tracing).
class RangeRecorder {
 public:
  using ClockFn = std::uint64_t (*)();
  RangeRecorder(ClockFn clock, std::uint32_t threadId) : clock_(clock), threadId_(threadId) {}

  std::uint64_t now() const { return clock_(); }
  void setEnabled(bool on) { enabled_ = on; }
  void add(HostRangeKind kind, std::string name, std::uint64_t start, std::uint64_t end) {
    if (enabled_) ranges_.push_back(HostRange{kind, std::move(name), start, end, threadId_});
  }
  std::vector<HostRange> take() { return std::move(ranges_); }

  // Marks [construction, destruction) as one logical operation.
  class Scope {
   public:
    Scope(RangeRecorder& r, const char* name) : r_(r), name_(name), start_(r.now()) {}
    ~Scope() { r_.add(HostRangeKind::Op, name_, start_, r_.now()); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    RangeRecorder& r_;
    const char* name_;
    std::uint64_t start_;
  };

 private:
  ClockFn clock_;
  std::uint32_t threadId_;
  bool enabled_ = false;
  std::vector<HostRange> ranges_;
};

struct DeviceContext {
  int device = 0;
  cudaDeviceProp prop{};
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  cublasLtHandle_t lt = nullptr;
  void* ltWorkspace = nullptr;
  std::size_t ltWorkspaceBytes = 0;
  RangeRecorder* ranges = nullptr;

  RangeRecorder::Scope op(const char* name) { return RangeRecorder::Scope(*ranges, name); }
};

struct WorkloadSpec {
  std::string variant;
  int size = 0;
};

class Workload {
 public:
  virtual ~Workload() = default;
  // Allocates and fills inputs; not recorded.
  virtual void setup(DeviceContext& ctx) = 0;
  // One step's work, enqueued on ctx.stream.
  virtual void step(DeviceContext& ctx) = 0;
  // Compares the last step's output with a CPU reference: "" when it
  // matches, else where and by how much it does not.
  virtual std::string check(DeviceContext& ctx) = 0;
};

// Throws CudaFailure for an unknown name (the registry validated it first).
std::unique_ptr<Workload> makeWorkload(const std::string& name, const WorkloadSpec& spec);

std::unique_ptr<Workload> makeMatmulAdd(const WorkloadSpec& spec);
std::unique_ptr<Workload> makeLinear(const WorkloadSpec& spec);
std::unique_ptr<Workload> makeMlp(const WorkloadSpec& spec);
std::unique_ptr<Workload> makeSplitStack(const WorkloadSpec& spec);
std::unique_ptr<Workload> makeCombined(const WorkloadSpec& spec);
std::unique_ptr<Workload> makeSplitStackGraph(const WorkloadSpec& spec);
std::unique_ptr<Workload> makeSquare(const WorkloadSpec& spec);
std::unique_ptr<Workload> makeSyncEveryStep(const WorkloadSpec& spec);

}  // namespace gapscope::gpu::cuda
