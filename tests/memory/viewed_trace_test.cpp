// timeline::prepareForViewing (what the app computes when a trace opens):
// the layout built beside the analyses gets the memory lanes, every part
// the views read is computed, and the stages are heard.
#include <gtest/gtest.h>

#include <mutex>
#include <set>
#include <string>

#include "gapscope/timeline/viewed_trace.h"
#include "memory_trace_json.h"

namespace {

class StageNames : public gapscope::analysis::StageObserver {
 public:
  void stageFinished(const gapscope::analysis::StageTiming& t) override {
    std::lock_guard lock(mu_);
    names.insert(t.name);
  }
  std::set<std::string> names;

 private:
  std::mutex mu_;
};

TEST(ViewedTrace, LayoutBesideTheAnalysesWithTheMemoryLanes) {
  StageNames stages;
  const gapscope::timeline::ViewedTrace viewed =
      gapscope::timeline::prepareForViewing(gapscope::testing::peakLeakNestedTrace().trace(), &stages);
  ASSERT_TRUE(viewed.trace && viewed.layout && viewed.analysis);
  // Busy, summary, gaps, operators, kernels, memory and the gap list's
  // ranking; the call tree waits to be asked.
  EXPECT_EQ(viewed.analysis->partsComputed(), 7);
  // The trace's "[memory]" events are on GPU 0 and the CPU (device -1).
  const auto& lanes = viewed.layout->memoryLanes();
  ASSERT_EQ(lanes.size(), 2u);
  std::set<std::int32_t> devices{lanes[0].device, lanes[1].device};
  EXPECT_EQ(devices, (std::set<std::int32_t>{-1, 0}));
  for (const auto& lane : lanes) {
    // The peaks stated in the JSON: 1500 bytes allocated at 130.25 us on GPU 0, 16 on the CPU.
    EXPECT_EQ(lane.peakAllocated, lane.device == 0 ? 1500 : 16) << "device " << lane.device;
  }
  // A memory lane's name gives its scale, not a peak: from the lowest
  // allocated value to the highest of allocated and reserved, a unit shared
  // by both written once (the trace's figures: 750 B to 4 KiB reserved on
  // GPU 0, 16 B held the whole time on the CPU).
  std::set<std::string> names;
  for (const auto& lane : viewed.layout->lanes()) {
    if (lane.kind == gapscope::timeline::LaneKind::Memory) names.insert(lane.name);
  }
  EXPECT_EQ(names, (std::set<std::string>{"Memory scale 750 B\u2013" "4.0 KiB", "Memory scale 16\u2013" "16 B"}));
  // The same layout as built alone, then given the lanes.
  gapscope::timeline::TimelineLayout alone = gapscope::timeline::TimelineLayout::build(*viewed.trace);
  alone.addMemoryLanes(viewed.analysis->memory());
  EXPECT_EQ(alone.lanes().size(), viewed.layout->lanes().size());
  EXPECT_EQ(alone.rows().size(), viewed.layout->rows().size());
  for (const char* stage : {"timeline layout", "analyses", "gap analysis", "operator table", "memory"}) {
    EXPECT_TRUE(stages.names.count(stage)) << stage;
  }
}

}  // namespace
