// Generated runs of a small program for the comparison tests: steps of CPU
// operators, each launching kernels, with known timings, so every figure a
// comparison reports can be worked out by hand in the test.
//
// Per step: an annotation (ProfilerStep#N, or a given name) around the ops;
// each op is a cpu_op of its own whose launch calls take kLaunchNs each,
// back to back after kOpLeadNs; a kernel starts when its launch returns or
// when the previous kernel ends, whichever is later (one stream), plus the
// op's extra GPU delay. A graph step is one cudaGraphLaunch whose kernels
// run back to back.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "../analysis/trace_maker.h"
#include "gapscope/analysis/trace_analysis.h"

namespace gapscope::testing {

struct OpSpec {
  OpSpec(std::string opName, std::vector<std::string> launched, TimeNs kernelDur = 2000,
         std::string call = "cudaLaunchKernel", std::string around = "")
      : op(std::move(opName)),
        kernels(std::move(launched)),
        kernelNs(kernelDur),
        launchCall(std::move(call)),
        annotation(std::move(around)) {}
  std::string op;                    // cpu_op name; "" launches outside any op
  std::vector<std::string> kernels;  // launched in order ("Memcpy ..." names are memcpys)
  TimeNs kernelNs;
  std::string launchCall;
  std::string annotation;  // a user_annotation around the op ("" for none)
};

class RunMaker {
 public:
  static constexpr TimeNs kLaunchNs = 3000;
  static constexpr TimeNs kOpLeadNs = 1000;
  static constexpr TimeNs kStepGapNs = 10000;  // CPU time between steps

  // `stepName` "" writes ProfilerStep#N annotations; another name writes that
  // annotation for every step; "-" writes none.
  explicit RunMaker(std::string stepName = "") : stepName_(std::move(stepName)) {}

  RunMaker& step(const std::vector<OpSpec>& ops) {
    const TimeNs stepStart = cpu_;
    for (const OpSpec& op : ops) addOp(op);
    cpu_ += 1000;
    addStepAnnotation(stepStart, cpu_);
    cpu_ += kStepGapNs;
    return *this;
  }

  // Work before the steps (a warm-up, a set-up), then `pause` of CPU time.
  RunMaker& outsideSteps(const std::vector<OpSpec>& ops, TimeNs pause) {
    for (const OpSpec& op : ops) addOp(op);
    cpu_ += pause;
    return *this;
  }

  // One cudaGraphLaunch running `kernels` back to back.
  RunMaker& graphStep(const std::vector<std::string>& kernels, TimeNs kernelNs = 2000) {
    const TimeNs stepStart = cpu_;
    cpu_ += kOpLeadNs;
    const std::int64_t corr = nextCorrelation_++;
    maker_.cpu("cudaGraphLaunch", "cuda_runtime", cpu_, kLaunchNs, corr);
    cpu_ += kLaunchNs;
    gpu_ = std::max(gpu_, cpu_);
    for (const std::string& k : kernels) {
      maker_.kernel(k, gpu_, kernelNs, corr);
      gpu_ += kernelNs;
    }
    cpu_ += 1000;
    addStepAnnotation(stepStart, cpu_);
    cpu_ += kStepGapNs;
    return *this;
  }

  std::shared_ptr<const analysis::TraceAnalysis> analysis(const std::string& file) {
    Trace t = maker_.finish();
    t.metadata.sourcePath = file;
    return std::make_shared<const analysis::TraceAnalysis>(std::make_shared<const Trace>(std::move(t)));
  }

 private:
  void addOp(const OpSpec& op) {
    const TimeNs opStart = cpu_;
    cpu_ += kOpLeadNs;
    for (const std::string& k : op.kernels) {
      const std::int64_t corr = nextCorrelation_++;
      const bool driver = op.launchCall.rfind("cu", 0) == 0 && op.launchCall.rfind("cuda", 0) != 0;
      maker_.cpu(op.launchCall, driver ? "cuda_driver" : "cuda_runtime", cpu_, kLaunchNs, corr);
      cpu_ += kLaunchNs;
      gpu_ = std::max(gpu_, cpu_);
      maker_.gpu(k, k.rfind("Memcpy", 0) == 0 ? "gpu_memcpy" : "kernel", gpu_, op.kernelNs, corr);
      gpu_ += op.kernelNs;
    }
    cpu_ += 500;
    if (!op.op.empty()) maker_.cpu(op.op, "cpu_op", opStart, cpu_ - opStart);
    if (!op.annotation.empty()) maker_.cpu(op.annotation, "user_annotation", opStart - 100, cpu_ - opStart + 200);
    cpu_ += 500;
  }

  void addStepAnnotation(TimeNs start, TimeNs end) {
    ++steps_;
    if (stepName_ == "-") return;
    const std::string name = stepName_.empty() ? "ProfilerStep#" + std::to_string(steps_) : stepName_;
    maker_.cpu(name, "user_annotation", start - 200, end - start + 400);
  }

  TraceMaker maker_;
  std::string stepName_;
  TimeNs cpu_ = 1'000'000;
  TimeNs gpu_ = 0;
  std::int64_t nextCorrelation_ = 1;
  int steps_ = 0;
};

}  // namespace gapscope::testing
