// Timing of the gap analysis' steps for bench/gaps: off, and costing one
// atomic load per step, unless a benchmark installs a PhaseTimes.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <vector>

namespace gapscope::analysis::gaps_detail {

struct PhaseTime {
  std::string name;
  double wallSeconds = 0;
  double threadCpuSeconds = 0;  // CPU time of the thread that ran the step (0 where unknown)
};

class PhaseTimes {
 public:
  void add(PhaseTime t);  // from any thread
  std::vector<PhaseTime> take();

 private:
  std::mutex mutex_;
  std::vector<PhaseTime> times_;
};

// The installed log; nullptr (the default) turns timing off.
std::atomic<PhaseTimes*>& installedPhaseTimes();

// Times the enclosing scope as one step.
class TimedPhase {
 public:
  explicit TimedPhase(const char* name);
  ~TimedPhase();
  TimedPhase(const TimedPhase&) = delete;
  TimedPhase& operator=(const TimedPhase&) = delete;

 private:
  PhaseTimes* log_;
  const char* name_;
  std::chrono::steady_clock::time_point wall_;
  double cpu_ = 0;
};

}  // namespace gapscope::analysis::gaps_detail
