// CPU references for the workloads' --check mode: element-by-element
// comparison with a tolerance, reporting the first mismatch.
#pragma once

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace gapscope::gpu::cuda {

class Comparison {
 public:
  // |got - want| <= atol + rtol * |want| passes.
  Comparison(double rtol, double atol) : rtol_(rtol), atol_(atol) {}

  void expect(const char* what, std::size_t index, double got, double want) {
    ++checked_;
    double err = std::fabs(got - want);
    if (err <= atol_ + rtol_ * std::fabs(want) && std::isfinite(got)) return;
    if (bad_++ == 0) {
      first_ = std::string(what) + "[" + std::to_string(index) + "] = " + std::to_string(got) +
               ", CPU reference " + std::to_string(want);
    }
  }

  // "" when everything matched.
  std::string result() const {
    if (checked_ == 0) return "nothing was compared";
    if (bad_ == 0) return {};
    return std::to_string(bad_) + " of " + std::to_string(checked_) + " values differ; first: " + first_;
  }

 private:
  double rtol_;
  double atol_;
  std::size_t checked_ = 0;
  std::size_t bad_ = 0;
  std::string first_;
};

// Row `row` of A[M,K] * B[K,N] (row-major), in double.
inline std::vector<double> matmulRow(const std::vector<float>& A, const std::vector<float>& B, std::size_t row,
                                     std::size_t K, std::size_t N) {
  std::vector<double> out(N, 0.0);
  for (std::size_t k = 0; k < K; ++k) {
    double a = A[row * K + k];
    const float* b = B.data() + k * N;
    for (std::size_t j = 0; j < N; ++j) out[j] += a * b[j];
  }
  return out;
}

// A few rows spread over [0, rows): first, middle, last.
inline std::vector<std::size_t> sampleRows(std::size_t rows) {
  std::vector<std::size_t> r{0};
  if (rows > 2) r.push_back(rows / 2);
  if (rows > 1) r.push_back(rows - 1);
  return r;
}

}  // namespace gapscope::gpu::cuda
