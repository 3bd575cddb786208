#include "gemm.h"

#include <string>

#include "cuda_check.h"

namespace gapscope::gpu::cuda {

void gemmRowMajor(cublasHandle_t blas, cudaDataType_t type, int M, int N, int K, const void* A,
                  const void* B, void* C) {
  const float alpha = 1.f;
  const float beta = 0.f;
  GS_CHECK(cublasGemmEx(blas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, type, N, A, type, K, &beta, C,
                        type, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

LtMatmul::LtMatmul(const DeviceContext& ctx, cudaDataType_t type, int M, int N, int K,
                   cublasLtEpilogue_t epilogue) {
  GS_CHECK(cublasLtMatmulDescCreate(&desc_, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  GS_CHECK(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof epilogue));
  GS_CHECK(cublasLtMatrixLayoutCreate(&a_, type, N, K, N));
  GS_CHECK(cublasLtMatrixLayoutCreate(&b_, type, K, M, K));
  GS_CHECK(cublasLtMatrixLayoutCreate(&d_, type, N, M, N));

  cublasLtMatmulPreference_t pref = nullptr;
  GS_CHECK(cublasLtMatmulPreferenceCreate(&pref));
  std::size_t ws = ctx.ltWorkspaceBytes;
  cublasStatus_t st =
      cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  if (st == CUBLAS_STATUS_SUCCESS)
    st = cublasLtMatmulAlgoGetHeuristic(ctx.lt, desc_, a_, b_, d_, d_, pref, 1, &result, &found);
  cublasLtMatmulPreferenceDestroy(pref);
  throwIfFailed(st, "cublasLtMatmulAlgoGetHeuristic");
  if (found == 0) {
    throw CudaFailure("cublasLtMatmulAlgoGetHeuristic found no algorithm for a " + std::to_string(M) + "x" +
                      std::to_string(N) + "x" + std::to_string(K) + " matmul with this epilogue");
  }
  algo_ = result.algo;
}

LtMatmul::~LtMatmul() {
  if (d_) cublasLtMatrixLayoutDestroy(d_);
  if (b_) cublasLtMatrixLayoutDestroy(b_);
  if (a_) cublasLtMatrixLayoutDestroy(a_);
  if (desc_) cublasLtMatmulDescDestroy(desc_);
}

void LtMatmul::run(const DeviceContext& ctx, const void* A, const void* B, const void* bias, void* D) {
  GS_CHECK(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias));
  const float alpha = 1.f;
  const float beta = 0.f;
  GS_CHECK(cublasLtMatmul(ctx.lt, desc_, &alpha, B, a_, A, b_, &beta, D, d_, D, d_, &algo_, ctx.ltWorkspace,
                          ctx.ltWorkspaceBytes, ctx.stream));
}

}  // namespace gapscope::gpu::cuda
