#include "phase_times.h"

#include <ctime>
#include <utility>

namespace gapscope::analysis::gaps_detail {
namespace {

double threadCpuSeconds() {
#ifdef CLOCK_THREAD_CPUTIME_ID
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
#else
  return 0;
#endif
}

}  // namespace

void PhaseTimes::add(PhaseTime t) {
  std::lock_guard<std::mutex> lock(mutex_);
  times_.push_back(std::move(t));
}

std::vector<PhaseTime> PhaseTimes::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::exchange(times_, {});
}

std::atomic<PhaseTimes*>& installedPhaseTimes() {
  static std::atomic<PhaseTimes*> log{nullptr};
  return log;
}

TimedPhase::TimedPhase(const char* name)
    : log_(installedPhaseTimes().load(std::memory_order_relaxed)), name_(name) {
  if (!log_) return;
  wall_ = std::chrono::steady_clock::now();
  cpu_ = threadCpuSeconds();
}

TimedPhase::~TimedPhase() {
  if (!log_) return;
  std::chrono::duration<double> wall = std::chrono::steady_clock::now() - wall_;
  log_->add({name_, wall.count(), threadCpuSeconds() - cpu_});
}

}  // namespace gapscope::analysis::gaps_detail
