// The plain CUDA program of the `record -- CMD` proof (docs/recording.md):
// per step, 4 launches of kernel_a on one stream, 3 of kernel_b on a second,
// and one launch of a CUDA graph (graph_k1, graph_k2, graph_k3) on a third;
// each step inside an NVTX range "ProfilerStep#N". With "profiler-range",
// cudaProfilerStart/Stop bracket steps 3..5 (for --capture-range
// cudaProfilerApi). Prints what it launched, for the checker.
//   nvcc -O2 -arch=sm_90 two_streams_graph.cu -o two_streams_graph -ldl
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#define CHECK(x)                                                                 \
  do {                                                                           \
    cudaError_t e = (x);                                                         \
    if (e != cudaSuccess) {                                                      \
      std::fprintf(stderr, "%s failed: %s\n", #x, cudaGetErrorString(e));        \
      std::exit(1);                                                              \
    }                                                                            \
  } while (0)

__global__ void kernel_a(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 1.0001f + 1.0f;
}
__global__ void kernel_b(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = sqrtf(fabsf(x[i]) + 2.0f);
}
__global__ void graph_k1(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}
__global__ void graph_k2(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 0.5f;
}
__global__ void graph_k3(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] -= 0.25f;
}

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 10;
  const bool profilerRange = argc > 2 && std::strcmp(argv[2], "profiler-range") == 0;
  const int n = 1 << 20, threads = 256, blocks = (n + threads - 1) / threads;
  float *a, *b, *g;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMalloc(&g, n * sizeof(float)));
  CHECK(cudaMemset(a, 0, n * sizeof(float)));
  CHECK(cudaMemset(b, 0, n * sizeof(float)));
  CHECK(cudaMemset(g, 0, n * sizeof(float)));
  cudaStream_t s1, s2, s3;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s3, cudaStreamCaptureModeGlobal));
  graph_k1<<<blocks, threads, 0, s3>>>(g, n);
  graph_k2<<<blocks, threads, 0, s3>>>(g, n);
  graph_k3<<<blocks, threads, 0, s3>>>(g, n);
  CHECK(cudaStreamEndCapture(s3, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaDeviceSynchronize());
  for (int s = 0; s < steps; ++s) {
    if (profilerRange && s == 3) CHECK(cudaProfilerStart());
    nvtxRangePushA(("ProfilerStep#" + std::to_string(s)).c_str());
    for (int i = 0; i < 4; ++i) kernel_a<<<blocks, threads, 0, s1>>>(a, n);
    for (int i = 0; i < 3; ++i) kernel_b<<<blocks, threads, 0, s2>>>(b, n);
    CHECK(cudaGraphLaunch(exec, s3));
    CHECK(cudaDeviceSynchronize());
    nvtxRangePop();
    if (profilerRange && s == 5) CHECK(cudaProfilerStop());
  }
  CHECK(cudaGetLastError());
  std::printf("launched: kernel_a=%d kernel_b=%d graph_k1=%d graph_k2=%d graph_k3=%d graph_launches=%d steps=%d\n",
              4 * steps, 3 * steps, steps, steps, steps, steps, steps);
  return 0;
}
