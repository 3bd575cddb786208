#include "analysis/pipeline/stage_graph.h"

#include <chrono>
#include <condition_variable>
#include <ctime>
#include <deque>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <thread>

namespace gapscope::analysis::pipeline {
namespace {

double threadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void runStage(const char* name, const std::function<void()>& work, StageObserver* observer) {
  if (!observer) return work();
  const auto wall = std::chrono::steady_clock::now();
  const double cpu = threadCpuSeconds();
  work();
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - wall;
  observer->stageFinished({name, elapsed.count(), threadCpuSeconds() - cpu});
}

}  // namespace

StageGraph::StageId StageGraph::add(const char* name, std::vector<StageId> needs, std::function<void()> work) {
  const StageId id = stages_.size();
  for (StageId need : needs) {
    // Needing only earlier stages keeps the graph acyclic by construction.
    if (need >= id) throw std::logic_error(std::string("stage '") + name + "' needs a later stage");
  }
  stages_.push_back({name, std::move(needs), std::move(work)});
  return id;
}

void StageGraph::run(int threads, StageObserver* observer) {
  const std::size_t n = stages_.size();
  std::vector<std::vector<StageId>> dependents(n);
  std::vector<std::size_t> waiting(n);
  std::deque<StageId> ready;
  for (StageId id = 0; id < n; ++id) {
    waiting[id] = stages_[id].needs.size();
    for (StageId need : stages_[id].needs) dependents[need].push_back(id);
    if (waiting[id] == 0) ready.push_back(id);
  }
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t done = 0;
  std::exception_ptr error;
  auto worker = [&] {
    std::unique_lock lock(mutex);
    for (;;) {
      changed.wait(lock, [&] { return !ready.empty() || done == n || error; });
      if (done == n || error) return;
      const StageId id = ready.front();
      ready.pop_front();
      lock.unlock();
      std::exception_ptr failed;
      try {
        runStage(stages_[id].name, stages_[id].work, observer);
      } catch (...) {
        failed = std::current_exception();
      }
      lock.lock();
      ++done;
      if (failed && !error) error = failed;
      for (StageId d : dependents[id])
        if (--waiting[d] == 0) ready.push_back(d);
      changed.notify_all();
    }
  };
  std::vector<std::thread> helpers;
  for (int i = 1; i < threads; ++i) {
    try {
      helpers.emplace_back(worker);
    } catch (const std::system_error&) {
      break;  // no more threads to be had: fewer do the same work
    }
  }
  worker();
  for (std::thread& t : helpers) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace gapscope::analysis::pipeline
