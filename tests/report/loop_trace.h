// Eager-PyTorch-like traces for report tests, built through TraceBuilder:
// a CPU thread that runs ops one after another, each op launching one GPU
// activity on stream 7 of device 0, with the GPU starting a kernel as soon
// as it is launched and the previous one is done. Times in nanoseconds.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "gapscope/model/trace_builder.h"

namespace gapscope::testing {

inline constexpr TimeNs kUs = 1000;

struct LoopOpTimes {
  TimeNs cpuBefore = 4 * kUs;  // CPU op time before the launch call
  TimeNs launch = 5 * kUs;     // launch call duration
  TimeNs cpuAfter = 2 * kUs;   // CPU op time after the launch call
  float occupancy = 50.f;      // est. achieved occupancy %, -1: absent
  std::int32_t gridX = 1024;
};

class LoopTrace {
 public:
  LoopTrace() {
    DeviceProperties d;
    d.id = 0;
    d.name = "Test GPU";
    d.numSms = 132;
    d.computeMajor = 9;
    b_.metadata().devices.push_back(d);
    b_.metadata().sourcePath = "/tmp/loop_trace.json";
  }

  // One op: cpu_op `opName` around a launch call, the GPU activity after it.
  LoopTrace& op(const std::string& opName, const std::string& gpuName, TimeNs gpuDur, LoopOpTimes spec = {},
                const std::string& gpuCategory = "kernel", const std::string& launchName = "cudaLaunchKernel") {
    TimeNs opStart = cpuNow_;
    TimeNs launchStart = opStart + spec.cpuBefore;
    TimeNs launchEnd = launchStart + spec.launch;
    TimeNs opEnd = launchEnd + spec.cpuAfter;
    std::int64_t corr = nextCorrelation_++;
    slice(1, 1, opName, "cpu_op", opStart, opEnd - opStart);
    slice(1, 1, launchName, "cuda_runtime", launchStart, spec.launch, corr);
    TimeNs gpuStart = std::max(launchEnd + 500, gpuFree_);
    std::optional<KernelInfo> info;
    if (gpuCategory == "kernel") {
      KernelInfo k;
      k.grid[0] = spec.gridX;
      k.grid[1] = k.grid[2] = 1;
      k.block[0] = 128;
      k.block[1] = k.block[2] = 1;
      k.registersPerThread = 32;
      k.sharedMemory = 0;
      k.occupancyPct = spec.occupancy;
      k.device = 0;
      k.stream = 7;
      info = k;
    }
    slice(0, 7, gpuName, gpuCategory, gpuStart, gpuDur, corr, info);
    gpuFree_ = gpuStart + gpuDur;
    cpuNow_ = opEnd;
    return *this;
  }

  // A blocking call (default cudaDeviceSynchronize) that returns once the GPU is done.
  LoopTrace& sync(const std::string& callName = "cudaDeviceSynchronize", const std::string& insideOp = "") {
    TimeNs start = cpuNow_;
    TimeNs end = std::max(start + 2 * kUs, gpuFree_ + kUs);
    if (!insideOp.empty()) slice(1, 1, insideOp, "cpu_op", start, end - start + kUs);
    slice(1, 1, callName, "cuda_runtime", start, end - start);
    cpuNow_ = end + (insideOp.empty() ? 0 : kUs);
    return *this;
  }

  // A runtime call that launches nothing (cudaFree, cudaMalloc, ...) on the
  // thread, between ops.
  LoopTrace& runtimeCall(const std::string& callName, TimeNs dur) {
    slice(1, 1, callName, "cuda_runtime", cpuNow_, dur);
    cpuNow_ += dur;
    return *this;
  }

  // CPU time with no traced op (Python between ops).
  LoopTrace& cpuWork(TimeNs dur) {
    cpuNow_ += dur;
    return *this;
  }

  LoopTrace& beginStep() {
    stepStart_ = cpuNow_;
    cpuNow_ += kUs;
    return *this;
  }
  LoopTrace& endStep() {
    cpuNow_ += kUs;
    slice(1, 1, "ProfilerStep#" + std::to_string(step_++), "user_annotation", stepStart_, cpuNow_ - stepStart_);
    return *this;
  }

  LoopTrace& sourcePath(const std::string& path) {
    b_.metadata().sourcePath = path;
    return *this;
  }
  TraceBuilder& builder() { return b_; }
  Trace finish() { return b_.finish(); }

 private:
  void slice(std::int64_t pid, std::int64_t tid, const std::string& name, const std::string& cat, TimeNs start,
             TimeNs dur, std::int64_t corr = kNoCorrelation, std::optional<KernelInfo> info = std::nullopt) {
    SliceEvent e;
    e.pid = b_.numericId(pid);
    e.tid = b_.numericId(tid);
    e.start = start;
    e.dur = dur;
    e.name = b_.intern(name);
    e.category = b_.intern(cat);
    e.correlation = corr;
    e.kernel = info;
    b_.addComplete(e);
  }

  TraceBuilder b_;
  TimeNs cpuNow_ = 1'000'000;
  TimeNs gpuFree_ = 0;
  TimeNs stepStart_ = 0;
  std::int64_t step_ = 1;
  std::int64_t nextCorrelation_ = 100;
};

// Kernel names as PyTorch on CUDA writes them.
inline const std::string kGemm = "sm90_xmma_gemm_f32f32_tn_n_tilesize128x128x32_execute_kernel__5x_cublas";
inline const std::string kGemmBias = "nvjet_sm90_tst_48x64_64x15_4x1_v_bz_bias_TNN";
inline const std::string kLayerNorm =
    "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float, false>(int, float, "
    "float const*, float const*, float const*, float*, float*, float*)";
inline const std::string kTanh =
    "void at::native::vectorized_elementwise_kernel<4, at::native::tanh_kernel_cuda(at::TensorIteratorBase&)::"
    "{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul> "
    ">(int, at::native::tanh_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::"
    "operator()() const::{lambda(float)#1}, std::array<char*, 2ul>)";
inline const std::string kAdd =
    "void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>, "
    "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)";
inline const std::string kMul =
    "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, float, "
    "at::native::binary_internal::MulFunctor<float> >, std::array<char*, 3ul> >(int, "
    "at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, "
    "std::array<char*, 3ul>)";
inline const std::string kSoftmax = "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float>(float*, float const*, int)";

// A GPU-bound loop that no rule should flag: large kernels (the CPU runs
// ahead), GEMMs with their bias in the epilogue, good occupancy, pinned
// copies, and the only synchronisation after the last step.
inline Trace cleanTrace() {
  LoopTrace t;
  for (int step = 0; step < 3; ++step) {
    t.beginStep();
    t.op("aten::copy_", "Memcpy HtoD (Pinned -> Device)", 80 * kUs, {}, "gpu_memcpy", "cudaMemcpyAsync");
    for (int layer = 0; layer < 4; ++layer) {
      t.op("aten::addmm", kGemmBias, 400 * kUs, {.occupancy = 0.f});
      t.op("aten::native_layer_norm", kLayerNorm, 200 * kUs, {.occupancy = 60.f});
      t.op("aten::tanh", kTanh, 150 * kUs, {.occupancy = 80.f});
    }
    t.endStep();
  }
  t.sync();
  return t.finish();
}

}  // namespace gapscope::testing
