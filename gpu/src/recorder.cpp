// record(): validate options against the registry, make sure the CUDA module
// and a device are there, let the module run the workload under CUPTI, and
// convert its records into the trace model.
#include "gapscope/gpu/recorder.h"

#include <algorithm>
#include <mutex>

#include "backend_loader.h"
#include "gapscope/gpu/workloads.h"

namespace gapscope::gpu {

namespace {

constexpr int kMaxSteps = 1000;
constexpr int kMaxWarmupSteps = 100;
constexpr std::size_t kMinPoolBytes = std::size_t{8} << 20;

// Fills `out` from `in` and the workload's defaults; returns an error line
// or "" when the options are valid.
std::string resolve(const RecordOptions& in, detail::ResolvedOptions& out) {
  const WorkloadInfo* w = findWorkload(in.workload);
  if (!w) {
    std::string names;
    for (const auto& x : workloads()) names += (names.empty() ? "" : ", ") + x.name;
    return "unknown workload '" + in.workload + "' (available: " + names + ")";
  }
  out.workload = w->name;
  out.variant = in.variant.empty() ? w->variants.front() : in.variant;
  if (std::find(w->variants.begin(), w->variants.end(), out.variant) == w->variants.end()) {
    std::string vs;
    for (const auto& v : w->variants) vs += (vs.empty() ? "" : ", ") + v;
    return "workload " + w->name + " has no variant '" + out.variant + "' (variants: " + vs + ")";
  }
  out.size = in.size == 0 ? w->defaultSize : in.size;
  if (out.size < w->minSize || out.size > w->maxSize) {
    return "--size " + std::to_string(out.size) + " is outside " + std::to_string(w->minSize) + ".." +
           std::to_string(w->maxSize) + " for " + w->name + " (" + w->sizeMeaning + ")";
  }
  out.steps = in.steps == 0 ? w->defaultSteps : in.steps;
  if (out.steps < 1 || out.steps > kMaxSteps)
    return "--steps must be within 1.." + std::to_string(kMaxSteps);
  out.warmupSteps = in.warmupSteps < 0 ? w->warmupSteps : in.warmupSteps;
  if (out.warmupSteps > kMaxWarmupSteps)
    return "warm-up steps must be within 0.." + std::to_string(kMaxWarmupSteps);
  if (in.device < 0) return "device must be a CUDA device ordinal (0, 1, ...)";
  out.device = in.device;
  out.trace = in.trace;
  out.check = in.check;
  out.syncEachStep = in.syncEachStep;
  out.bufferPoolBytes = std::max(in.bufferPoolBytes, kMinPoolBytes);
  return {};
}

// One recording per process: CUPTI's activity state is process-wide.
std::mutex gRecordingMutex;

}  // namespace

const char* stageName(RecordProgress::Stage s) {
  switch (s) {
    case RecordProgress::Stage::Starting: return "starting";
    case RecordProgress::Stage::WarmingUp: return "warming up";
    case RecordProgress::Stage::Recording: return "recording";
    case RecordProgress::Stage::Flushing: return "collecting records";
    case RecordProgress::Stage::Converting: return "building the trace";
    case RecordProgress::Stage::Done: return "done";
  }
  return "?";
}

Availability recordingAvailability() {
  static std::once_flag once;
  static Availability cached;
  std::call_once(once, [] {
    const detail::LoadedBackend& b = detail::loadBackend();
    if (!b.api) {
      cached.available = false;
      cached.why = b.why;
      cached.reason = b.error;
      return;
    }
    cached = b.api->probe(0, true);
  });
  return cached;
}

std::vector<DeviceInfo> localDevices() {
  std::vector<DeviceInfo> out;
  if (!recordingAvailability().available) return out;
  detail::loadBackend().api->describeDevices(out);
  return out;
}

RecordResult record(const RecordOptions& options, const ProgressCallback& progress,
                    const std::atomic<bool>* cancel) {
  RecordResult result;
  detail::ResolvedOptions resolved;
  if (std::string err = resolve(options, resolved); !err.empty()) {
    result.error = err;
    return result;
  }
  std::unique_lock lock(gRecordingMutex, std::try_to_lock);
  if (!lock.owns_lock()) {
    result.error = "another recording is already running in this process";
    return result;
  }
  const detail::LoadedBackend& b = detail::loadBackend();
  if (!b.api) {
    result.error = b.error;
    return result;
  }
  // Untraced runs (overhead baselines) must not touch CUPTI at all.
  Availability a = resolved.trace && resolved.device == 0 ? recordingAvailability()
                                                          : b.api->probe(resolved.device, resolved.trace);
  if (!a.available) {
    result.error = a.reason;
    return result;
  }
  auto report = [&progress](RecordProgress::Stage stage) {
    if (progress) progress(RecordProgress{stage, 0, 0});
  };
  report(RecordProgress::Stage::Starting);
  detail::BackendResult out;
  b.api->run(resolved, progress, cancel, out);
  result.stats = std::move(out.stats);
  result.warnings = std::move(out.warnings);
  result.cancelled = out.cancelled;
  result.error = std::move(out.error);
  if (!result.ok() || !resolved.trace) {
    if (result.ok()) report(RecordProgress::Stage::Done);
    return result;
  }
  report(RecordProgress::Stage::Converting);
  out.records.workload = resolved.workload;
  out.records.variant = resolved.variant;
  out.records.size = resolved.size;
  out.records.steps = resolved.steps;
  result.trace = convertToTrace(out.records);
  report(RecordProgress::Stage::Done);
  return result;
}

}  // namespace gapscope::gpu
