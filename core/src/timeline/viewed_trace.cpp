#include "gapscope/timeline/viewed_trace.h"

#include <chrono>
#include <exception>
#include <thread>

namespace gapscope::timeline {

namespace {

TimelineLayout buildLayout(const Trace& trace, analysis::StageObserver* observer) {
  const auto start = std::chrono::steady_clock::now();
  TimelineLayout layout = TimelineLayout::build(trace);
  if (observer) {
    analysis::StageTiming timing;
    timing.name = "timeline layout";
    timing.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    observer->stageFinished(timing);
  }
  return layout;
}

}  // namespace

ViewedTrace prepareForViewing(Trace&& trace, analysis::StageObserver* observer) {
  auto shared = std::make_shared<const Trace>(std::move(trace));
  auto analysis = std::make_shared<analysis::TraceAnalysis>(shared);
  std::shared_ptr<TimelineLayout> layout;
  std::exception_ptr layoutError;
  std::thread layoutThread([&] {
    try {
      layout = std::make_shared<TimelineLayout>(buildLayout(*shared, observer));
    } catch (...) {
      layoutError = std::current_exception();
    }
  });
  try {
    analysis->computeAll(observer);
  } catch (...) {
    layoutThread.join();
    throw;
  }
  layoutThread.join();
  if (layoutError) std::rethrow_exception(layoutError);
  layout->addMemoryLanes(analysis->memory());
  return ViewedTrace{std::move(shared), std::move(layout), std::move(analysis)};
}

}  // namespace gapscope::timeline
