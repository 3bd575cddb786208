// split_stack, combined, split_stack_graph: 16 slices of 64 rows, each
// through its own LayerNorm (over a row of N floats) and tanh.
//   split_stack        slice by slice: 32 tiny launches a step
//   combined           one LayerNorm launch and one tanh launch over all slices
//   split_stack_graph  the 32 launches captured once in a CUDA graph and
//                      replayed with one cudaGraphLaunch a step
#include <cmath>
#include <optional>

#include "device_buffer.h"
#include "kernels.cuh"
#include "reference.h"
#include "workload.h"

namespace gapscope::gpu::cuda {

namespace {

constexpr int kSlices = 16;
constexpr int kRowsPerSlice = 64;
constexpr int kThreads = 128;
constexpr float kEps = 1e-5f;

__device__ float blockSum(float v, float* scratch) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  int warp = threadIdx.x / 32;
  if (threadIdx.x % 32 == 0) scratch[warp] = v;
  __syncthreads();
  float total = 0.f;
  for (int w = 0; w < blockDim.x / 32; ++w) total += scratch[w];
  __syncthreads();
  return total;
}

// One block per row; gamma and beta belong to the row's slice.
__global__ void layerNormKernel(const float* x, float* y, const float* gamma, const float* beta, int width) {
  __shared__ float scratch[kThreads / 32];
  int row = blockIdx.x;
  const float* in = x + std::size_t(row) * width;
  float* out = y + std::size_t(row) * width;
  const float* g = gamma + std::size_t(row / kRowsPerSlice) * width;
  const float* b = beta + std::size_t(row / kRowsPerSlice) * width;
  float s = 0.f;
  for (int i = threadIdx.x; i < width; i += blockDim.x) s += in[i];
  float mean = blockSum(s, scratch) / width;
  float q = 0.f;
  for (int i = threadIdx.x; i < width; i += blockDim.x) q += (in[i] - mean) * (in[i] - mean);
  float rstd = rsqrtf(blockSum(q, scratch) / width + kEps);
  for (int i = threadIdx.x; i < width; i += blockDim.x) out[i] = (in[i] - mean) * rstd * g[i] + b[i];
}

__global__ void tanhKernel(float* y, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    y[i] = tanhf(y[i]);
}

enum class Mode { Split, Combined, Graph };

class SplitStack final : public Workload {
 public:
  SplitStack(int width, Mode mode) : width_(width), mode_(mode) {}
  ~SplitStack() override {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
  }

  void setup(DeviceContext& ctx) override {
    std::size_t n = std::size_t(kSlices) * kRowsPerSlice * width_;
    x_ = DeviceBuffer<float>(n);
    y_ = DeviceBuffer<float>(n);
    gamma_ = DeviceBuffer<float>(std::size_t(kSlices) * width_);
    beta_ = DeviceBuffer<float>(std::size_t(kSlices) * width_);
    fillUniform(x_.get(), n, 30, 2.f, ctx.stream);
    fillUniform(gamma_.get(), gamma_.size(), 31, 1.f, ctx.stream);
    fillUniform(beta_.get(), beta_.size(), 32, 0.5f, ctx.stream);
    if (mode_ == Mode::Graph) {
      GS_CHECK(cudaStreamBeginCapture(ctx.stream, cudaStreamCaptureModeThreadLocal));
      for (int s = 0; s < kSlices; ++s) launchSlice(ctx.stream, s);
      GS_CHECK(cudaStreamEndCapture(ctx.stream, &graph_));
      GS_CHECK(cudaGraphInstantiate(&exec_, graph_, 0));
    }
  }

  void step(DeviceContext& ctx) override {
    if (mode_ == Mode::Graph) {
      auto op = ctx.op("graph_replay");
      GS_CHECK(cudaGraphLaunch(exec_, ctx.stream));
    } else if (mode_ == Mode::Combined) {
      std::size_t n = std::size_t(kSlices) * kRowsPerSlice * width_;
      {
        auto op = ctx.op("layer_norm");
        layerNormKernel<<<kSlices * kRowsPerSlice, kThreads, 0, ctx.stream>>>(x_.get(), y_.get(), gamma_.get(),
                                                                              beta_.get(), width_);
        GS_CHECK_LAUNCH("layerNormKernel");
      }
      auto op = ctx.op("tanh");
      tanhKernel<<<blocksFor(n, 256), 256, 0, ctx.stream>>>(y_.get(), n);
      GS_CHECK_LAUNCH("tanhKernel");
    } else {
      for (int s = 0; s < kSlices; ++s) launchSlice(ctx.stream, s, &ctx);
    }
  }

  std::string check(DeviceContext&) override {
    auto x = x_.toHost();
    auto y = y_.toHost();
    auto gamma = gamma_.toHost();
    auto beta = beta_.toHost();
    Comparison cmp(1e-4, 1e-4);
    for (int row = 0; row < kSlices * kRowsPerSlice; ++row) {
      const float* in = x.data() + std::size_t(row) * width_;
      double mean = 0, var = 0;
      for (int i = 0; i < width_; ++i) mean += in[i];
      mean /= width_;
      for (int i = 0; i < width_; ++i) var += (in[i] - mean) * (in[i] - mean);
      double rstd = 1.0 / std::sqrt(var / width_ + kEps);
      std::size_t slice = std::size_t(row / kRowsPerSlice) * width_;
      for (int i = 0; i < width_; ++i) {
        double want = std::tanh((in[i] - mean) * rstd * gamma[slice + i] + beta[slice + i]);
        std::size_t at = std::size_t(row) * width_ + i;
        cmp.expect("y", at, y[at], want);
      }
    }
    return cmp.result();
  }

 private:
  // One slice: LayerNorm then tanh, each its own launch (and op when ctx is given).
  void launchSlice(cudaStream_t stream, int s, DeviceContext* ctx = nullptr) {
    std::size_t offset = std::size_t(s) * kRowsPerSlice * width_;
    std::size_t n = std::size_t(kRowsPerSlice) * width_;
    {
      std::optional<RangeRecorder::Scope> op;
      if (ctx) op.emplace(*ctx->ranges, "layer_norm");
      layerNormKernel<<<kRowsPerSlice, kThreads, 0, stream>>>(x_.get() + offset, y_.get() + offset,
                                                              gamma_.get() + std::size_t(s) * width_,
                                                              beta_.get() + std::size_t(s) * width_, width_);
      GS_CHECK_LAUNCH("layerNormKernel");
    }
    std::optional<RangeRecorder::Scope> op;
    if (ctx) op.emplace(*ctx->ranges, "tanh");
    tanhKernel<<<blocksFor(n, 256), 256, 0, stream>>>(y_.get() + offset, n);
    GS_CHECK_LAUNCH("tanhKernel");
  }

  int width_;
  Mode mode_;
  DeviceBuffer<float> x_, y_, gamma_, beta_;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace

std::unique_ptr<Workload> makeSplitStack(const WorkloadSpec& spec) {
  return std::make_unique<SplitStack>(spec.size, Mode::Split);
}
std::unique_ptr<Workload> makeCombined(const WorkloadSpec& spec) {
  return std::make_unique<SplitStack>(spec.size, Mode::Combined);
}
std::unique_ptr<Workload> makeSplitStackGraph(const WorkloadSpec& spec) {
  return std::make_unique<SplitStack>(spec.size, Mode::Graph);
}

}  // namespace gapscope::gpu::cuda
