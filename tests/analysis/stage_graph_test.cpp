// The analyses' executor: stages run after the stages they need, side by
// side where they may, once each; errors stop the run and come back.
#include "analysis/pipeline/stage_graph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

namespace gapscope::analysis::pipeline {
namespace {

class Recorder : public StageObserver {
 public:
  void stageFinished(const StageTiming& t) override {
    std::lock_guard lock(mutex_);
    names.insert(t.name);
    EXPECT_GE(t.wallSeconds, 0.0);
    EXPECT_GE(t.threadCpuSeconds, 0.0);
  }
  std::multiset<std::string> names;

 private:
  std::mutex mutex_;
};

TEST(StageGraph, EveryStageRunsOnceAfterWhatItNeeds) {
  for (int threads : {1, 2, 4}) {
    StageGraph graph;
    std::mutex mutex;
    std::vector<int> order;
    auto stage = [&](int id) {
      return [&, id] {
        std::lock_guard lock(mutex);
        order.push_back(id);
      };
    };
    const auto a = graph.add("a", {}, stage(0));
    const auto b = graph.add("b", {}, stage(1));
    const auto c = graph.add("c", {a, b}, stage(2));
    const auto d = graph.add("d", {a}, stage(3));
    graph.add("e", {c, d}, stage(4));
    Recorder recorder;
    graph.run(threads, &recorder);
    ASSERT_EQ(order.size(), 5u) << threads;
    auto position = [&](int id) { return std::find(order.begin(), order.end(), id) - order.begin(); };
    EXPECT_LT(position(0), position(2));
    EXPECT_LT(position(1), position(2));
    EXPECT_LT(position(0), position(3));
    EXPECT_LT(position(2), position(4));
    EXPECT_LT(position(3), position(4));
    EXPECT_EQ(recorder.names, (std::multiset<std::string>{"a", "b", "c", "d", "e"}));
  }
}

TEST(StageGraph, OneThreadRunsEverythingOnTheCaller) {
  StageGraph graph;
  std::set<std::thread::id> ran;
  for (int i = 0; i < 4; ++i) graph.add("s", {}, [&] { ran.insert(std::this_thread::get_id()); });
  graph.run(1);
  EXPECT_EQ(ran, std::set<std::thread::id>{std::this_thread::get_id()});
}

// Two independent stages that each wait for the other to have started can
// only both finish when they run at the same time.
TEST(StageGraph, IndependentStagesRunSideBySide) {
  StageGraph graph;
  std::mutex mutex;
  std::condition_variable cv;
  int started = 0;
  std::atomic<int> metTheOther{0};
  auto meet = [&] {
    std::unique_lock lock(mutex);
    ++started;
    cv.notify_all();
    if (cv.wait_for(lock, std::chrono::seconds(10), [&] { return started == 2; })) ++metTheOther;
  };
  graph.add("left", {}, meet);
  graph.add("right", {}, meet);
  graph.run(2);
  EXPECT_EQ(metTheOther.load(), 2);
}

TEST(StageGraph, AFailingStageStopsItsDependentsAndIsRethrown) {
  for (int threads : {1, 2}) {
    StageGraph graph;
    std::atomic<bool> dependentRan{false};
    const auto bad = graph.add("bad", {}, [] { throw std::runtime_error("stage failed"); });
    graph.add("after", {bad}, [&] { dependentRan = true; });
    EXPECT_THROW(graph.run(threads), std::runtime_error);
    EXPECT_FALSE(dependentRan.load());
  }
}

TEST(StageGraph, AStageCanOnlyNeedEarlierOnes) {
  StageGraph graph;
  EXPECT_THROW(graph.add("self", {0}, [] {}), std::logic_error);
}

TEST(StageGraph, AnEmptyGraphRuns) {
  StageGraph graph;
  EXPECT_NO_THROW(graph.run(3));
}

}  // namespace
}  // namespace gapscope::analysis::pipeline
