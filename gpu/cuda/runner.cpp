// Runs one workload: set-up, warm-up steps (CUPTI already on, so its
// start-up cost stays out of the recorded steps), the recorded steps (the
// host runs ahead unless syncEachStep), one final stream sync, then the
// records.
#include "runner.h"

#include <cuda_runtime.h>
#include <cupti.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cerrno>
#include <optional>

#include "cuda_check.h"
#include "cupti_session.h"
#include "device_info.h"
#include "probe.h"
#include "workload.h"

namespace gapscope::gpu::cuda {

namespace {

constexpr std::size_t kLtWorkspaceBytes = std::size_t{32} << 20;

std::uint64_t steadyNow() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

std::int64_t wallNow() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Everything the workload runs on; released in reverse order.
struct DeviceResources {
  DeviceContext ctx;
  ~DeviceResources() {
    if (ctx.ltWorkspace) cudaFree(ctx.ltWorkspace);
    if (ctx.lt) cublasLtDestroy(ctx.lt);
    if (ctx.blas) cublasDestroy(ctx.blas);
    if (ctx.stream) cudaStreamDestroy(ctx.stream);
  }

  void open(int device) {
    ctx.device = device;
    GS_CHECK(cudaSetDevice(device));
    GS_CHECK(cudaGetDeviceProperties(&ctx.prop, device));
    GS_CHECK(cudaStreamCreateWithFlags(&ctx.stream, cudaStreamNonBlocking));
    GS_CHECK(cublasCreate(&ctx.blas));
    GS_CHECK(cublasSetStream(ctx.blas, ctx.stream));
    GS_CHECK(cublasLtCreate(&ctx.lt));
    GS_CHECK(cudaMalloc(&ctx.ltWorkspace, kLtWorkspaceBytes));
    ctx.ltWorkspaceBytes = kLtWorkspaceBytes;
  }
};

bool cancelled(const std::atomic<bool>* cancel) { return cancel && cancel->load(std::memory_order_relaxed); }

void report(const ProgressCallback& progress, RecordProgress::Stage stage, int step, int steps) {
  if (progress) progress(RecordProgress{stage, step, steps});
}

void runSteps(const ResolvedOptions& o, const ProgressCallback& progress, const std::atomic<bool>* cancel,
              detail::BackendResult& out) {
  DeviceResources res;
  res.open(o.device);
  DeviceContext& ctx = res.ctx;
  auto tid = static_cast<std::uint32_t>(syscall(SYS_gettid));
  RangeRecorder ranges(o.trace ? &CuptiSession::timestamp : &steadyNow, tid);
  ctx.ranges = &ranges;

  std::unique_ptr<Workload> workload = makeWorkload(o.workload, WorkloadSpec{o.variant, o.size});
  workload->setup(ctx);
  GS_CHECK(cudaStreamSynchronize(ctx.stream));

  std::optional<CuptiSession> session;
  if (o.trace) {
    session.emplace(o.bufferPoolBytes);
    session->start();
  }
  for (int w = 0; w < o.warmupSteps; ++w) {
    if (cancelled(cancel)) return void(out.cancelled = true);
    report(progress, RecordProgress::Stage::WarmingUp, w + 1, o.warmupSteps);
    workload->step(ctx);
    GS_CHECK(cudaStreamSynchronize(ctx.stream));
  }
  if (session) session->keepFromNow();
  const std::uint64_t clockAnchor = ranges.now();
  const std::int64_t wallAtAnchor = wallNow();
  ranges.setEnabled(true);
  const std::uint64_t wallStart = steadyNow();
  for (int s = 0; s < o.steps; ++s) {
    if (cancelled(cancel)) {
      cudaStreamSynchronize(ctx.stream);
      return void(out.cancelled = true);
    }
    report(progress, RecordProgress::Stage::Recording, s + 1, o.steps);
    std::uint64_t wall0 = steadyNow();
    std::uint64_t t0 = ranges.now();
    workload->step(ctx);
    if (o.syncEachStep) GS_CHECK(cudaStreamSynchronize(ctx.stream));
    std::uint64_t t1 = ranges.now();
    out.stats.stepWallNs.push_back(static_cast<std::int64_t>(steadyNow() - wall0));
    // Named as torch.profiler names steps, so every analysis finds them.
    ranges.add(HostRangeKind::Step, "ProfilerStep#" + std::to_string(s + 1), t0, t1);
  }
  GS_CHECK(cudaStreamSynchronize(ctx.stream));
  out.stats.wallNs = static_cast<std::int64_t>(steadyNow() - wallStart);
  ranges.setEnabled(false);
  out.stats.steps = o.steps;

  if (session) {
    report(progress, RecordProgress::Stage::Flushing, 0, 0);
    session->stop();
    out.records = std::move(session->records());
    out.records.droppedRecords = session->droppedRecords();
    out.stats.droppedRecords = session->droppedRecords();
    out.stats.bufferBytesUsed = session->peakBufferBytes();
    if (session->refusedBuffers() > 0 || session->droppedRecords() > 0) {
      out.warnings.push_back("the CUPTI buffer pool (" + std::to_string(session->poolBytes() >> 20) +
                             " MiB) ran out: " + std::to_string(session->droppedRecords()) +
                             " records were dropped; record fewer steps or a larger pool");
    }
  }
  out.records.ranges = ranges.take();
  out.records.clockAnchor = clockAnchor;
  out.records.wallClockAtAnchor = wallAtAnchor;
  out.records.processId = static_cast<std::uint32_t>(getpid());
  out.records.processName = program_invocation_short_name;
  out.records.devices.push_back(deviceInfoOf(o.device, ctx.prop));
  cudaDriverGetVersion(&out.records.cudaDriverVersion);
  cudaRuntimeGetVersion(&out.records.cudaRuntimeVersion);
  std::uint32_t cupti = 0;
  if (o.trace && cuptiGetVersion(&cupti) == CUPTI_SUCCESS) out.records.cuptiVersion = static_cast<std::int32_t>(cupti);
  out.stats.kernels = out.records.kernels.size();
  out.stats.memcpys = out.records.memcpys.size();
  out.stats.memsets = out.records.memsets.size();
  out.stats.apiCalls = out.records.apiCalls.size();

  if (o.check) {
    std::string mismatch = workload->check(ctx);
    if (!mismatch.empty()) {
      out.error = o.workload + " (" + o.variant + ", size " + std::to_string(o.size) +
                  ") does not match its CPU reference: " + mismatch;
      return;
    }
    out.stats.checked = true;
  }
}

}  // namespace

void runWorkload(const ResolvedOptions& o, const ProgressCallback& progress, const std::atomic<bool>* cancel,
                 detail::BackendResult& out) {
  try {
    runSteps(o, progress, cancel, out);
  } catch (const CudaFailure& e) {
    out.error = e.insufficientPrivileges() ? privilegesHint() + " (" + e.what() + ")" : e.what();
  } catch (const std::bad_alloc&) {
    out.error = "out of host memory while recording";
  } catch (const std::exception& e) {
    out.error = std::string("recording failed: ") + e.what();
  }
}

}  // namespace gapscope::gpu::cuda
