// Row-major GEMMs through cuBLAS and cuBLASLt. cuBLAS is column-major, so
// C[M,N] = A[M,K] * B[K,N] in row-major is computed as C^T = B^T * A^T: the
// same memory, operands swapped.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>
#include <library_types.h>

#include "workload.h"

namespace gapscope::gpu::cuda {

// C = A * B, fp32 accumulation; `type` is CUDA_R_32F or CUDA_R_16BF for all three.
void gemmRowMajor(cublasHandle_t blas, cudaDataType_t type, int M, int N, int K, const void* A,
                  const void* B, void* C);

// One cuBLASLt matmul with an epilogue (CUBLASLT_EPILOGUE_BIAS or
// CUBLASLT_EPILOGUE_GELU_BIAS): D = epilogue(A * B + bias), bias[N] per
// output column. The algorithm is chosen once, at construction.
class LtMatmul {
 public:
  LtMatmul(const DeviceContext& ctx, cudaDataType_t type, int M, int N, int K, cublasLtEpilogue_t epilogue);
  ~LtMatmul();
  LtMatmul(const LtMatmul&) = delete;
  LtMatmul& operator=(const LtMatmul&) = delete;

  void run(const DeviceContext& ctx, const void* A, const void* B, const void* bias, void* D);

 private:
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr;  // cuBLAS's A: our B^T
  cublasLtMatrixLayout_t b_ = nullptr;  // cuBLAS's B: our A^T
  cublasLtMatrixLayout_t d_ = nullptr;
  cublasLtMatmulAlgo_t algo_{};
};

}  // namespace gapscope::gpu::cuda
