// The memory analysis and `gapscope-cli memory` on the real traces with
// "[memory]" events, against figures counted here from the JSON itself
// (nlohmann, not gapscope's reader): resnet50 (2021: Bytes and Device Id
// only) and bert-small (H100: Addr and the totals too).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "../cli/cli_run.h"
#include "../support/json_time.h"
#include "../support/read_text.h"
#include "gapscope/io/chrome_reader.h"
#include "gapscope/memory/memory.h"
#include "gapscope/report/report.h"

namespace gapscope::memory {
namespace {

const std::string kResnet = std::string(GAPSCOPE_TEST_DATA_DIR) +
                            "/public/kineto-tb-resnet50-2021/worker0.1623143089861.pt.trace.json.gz";
const std::string kBert = std::string(GAPSCOPE_TEST_DATA_DIR) +
                          "/public/tl-h100-bert-small/gaunernst_bert-small-uncased__1016001.json.gz";

// One device's figures, counted from the JSON's "[memory]" events in
// (ts, file order) order.
struct JsonDevice {
  std::uint64_t events = 0;
  std::uint64_t allocs = 0;
  std::uint64_t frees = 0;
  std::int64_t allocBytes = 0;
  std::int64_t allocated = 0;  // Total Allocated, else the running sum of Bytes
  std::int64_t peak = 0;
  std::int64_t peakTs = 0;
  std::optional<std::int64_t> peakReserved;
  std::int64_t peakReservedTs = 0;
  std::uint64_t withoutAddress = 0;
  std::map<std::uint64_t, std::int64_t> live;  // address -> bytes
  std::uint64_t neverFreed = 0;                 // allocated again before a free
  std::int64_t neverFreedBytes = 0;
  std::uint64_t unmatchedFrees = 0;
  std::int64_t liveBytesAtPeak = 0;  // of the allocations made in the trace
  std::uint64_t liveAtPeak = 0;

  void add(std::int64_t ts, const nlohmann::json& args) {
    const auto bytes = args["Bytes"].get<std::int64_t>();
    allocated = args.contains("Total Allocated") ? args["Total Allocated"].get<std::int64_t>() : allocated + bytes;
    const bool newPeak = events++ == 0 || allocated > peak;
    if (newPeak) {
      peak = allocated;
      peakTs = ts;
    }
    if (args.contains("Total Reserved") && (!peakReserved || args["Total Reserved"].get<std::int64_t>() > *peakReserved)) {
      peakReserved = args["Total Reserved"].get<std::int64_t>();
      peakReservedTs = ts;
    }
    trackAllocation(args, bytes);
    if (newPeak) {
      liveAtPeak = live.size();
      liveBytesAtPeak = 0;
      for (const auto& [addr, size] : live) liveBytesAtPeak += size;
    }
  }

  void trackAllocation(const nlohmann::json& args, std::int64_t bytes) {
    allocs += bytes > 0;
    frees += bytes < 0;
    allocBytes += bytes > 0 ? bytes : 0;
    if (!args.contains("Addr")) {
      withoutAddress += bytes != 0;
      return;
    }
    const auto addr = args["Addr"].get<std::uint64_t>();
    if (bytes > 0) {
      if (live.count(addr)) {
        ++neverFreed;
        neverFreedBytes += live[addr];
      }
      live[addr] = bytes;
    } else if (bytes < 0 && !live.erase(addr)) {
      ++unmatchedFrees;
    }
  }
  std::uint64_t leaks() const { return neverFreed + live.size(); }
  std::int64_t leakedBytes() const {
    std::int64_t sum = neverFreedBytes;
    for (const auto& [addr, bytes] : live) sum += bytes;
    return sum;
  }
};

std::map<std::int32_t, JsonDevice> countFromJson(const std::string& path) {
  // Parsed whole: nlohmann's filtering callback parser took four times as long.
  const nlohmann::json doc = nlohmann::json::parse(testing::readMaybeGzipped(path));
  std::vector<std::pair<std::int64_t, const nlohmann::json*>> events;  // stable-sorted by ts below
  for (const auto& e : doc["traceEvents"]) {
    if (e.value("name", "") == "[memory]" && e.value("ph", "") == "i") events.emplace_back(testing::exactNs(e["ts"]), &e);
  }
  std::stable_sort(events.begin(), events.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::map<std::int32_t, JsonDevice> devices;
  for (const auto& [ts, e] : events) devices[(*e)["args"]["Device Id"].get<std::int32_t>()].add(ts, (*e)["args"]);
  return devices;
}

void expectCoreMatches(const MemoryAnalysis& m, const std::map<std::int32_t, JsonDevice>& json) {
  ASSERT_EQ(m.devices.size(), json.size());
  for (const DeviceMemory& d : m.devices) {
    SCOPED_TRACE(deviceLabel(d.device));
    ASSERT_TRUE(json.count(d.device));
    const JsonDevice& j = json.at(d.device);
    EXPECT_EQ(d.events, j.events);
    EXPECT_EQ(d.allocated.count, j.allocs);
    EXPECT_EQ(d.allocated.bytes, j.allocBytes);
    EXPECT_EQ(d.freed.count, j.frees);
    EXPECT_EQ(d.peakAllocated, j.peak);
    EXPECT_EQ(d.peakAllocatedTs, j.peakTs);
    EXPECT_EQ(d.peakReserved, j.peakReserved);
    if (j.peakReserved) {
      EXPECT_EQ(d.peakReservedTs, j.peakReservedTs);
    }
    EXPECT_EQ(d.withoutAddress, j.withoutAddress);
    if (d.allAddressed()) {
      EXPECT_EQ(d.neverFreed.count, j.leaks());
      EXPECT_EQ(d.neverFreed.bytes, j.leakedBytes());
      EXPECT_EQ(d.unmatchedFrees.count, j.unmatchedFrees);
    }
    std::uint64_t opAllocs = 0;  // the operator rows share out the device's allocations
    for (const OpMemory& o : d.byOp) opAllocs += o.allocated.count;
    EXPECT_EQ(opAllocs, d.allocated.count);
  }
}

void expectCliMatches(const std::string& path, const std::map<std::int32_t, JsonDevice>& json) {
  const testing::CliResult r = testing::runCli({"memory", path, "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json out = nlohmann::json::parse(r.out);
  std::uint64_t events = 0;
  ASSERT_EQ(out["devices"].size(), json.size());
  bool allAddressed = true;
  std::uint64_t leaks = 0;
  std::int64_t leakedBytes = 0;
  for (const auto& row : out["devices"]) {
    const JsonDevice& j = json.at(row["device"].get<std::int32_t>());
    events += j.events;
    EXPECT_EQ(row["events"], j.events);
    EXPECT_EQ(row["peak_allocated_bytes"], j.peak);
    EXPECT_EQ(row["peak_allocated_ts_ns"], j.peakTs);
    EXPECT_EQ(row["peak_reserved_bytes"], j.peakReserved ? nlohmann::json(*j.peakReserved) : nlohmann::json(nullptr));
    allAddressed = allAddressed && j.withoutAddress == 0;
    leaks += j.leaks();
    leakedBytes += j.leakedBytes();
  }
  EXPECT_EQ(out["memory_events"], events);
  EXPECT_EQ(out["leaks"]["count"], allAddressed ? nlohmann::json(leaks) : nlohmann::json(nullptr));
  EXPECT_EQ(out["leaks"]["bytes"], allAddressed ? nlohmann::json(leakedBytes) : nlohmann::json(nullptr));
}

MemoryAnalysis analyzeFile(const std::string& path) {
  io::LoadResult r = io::loadChromeTrace(path);
  EXPECT_TRUE(r.ok()) << r.error;
  return analyzeMemory(*r.trace);
}

// 2021 Kineto: no Addr and no totals, so the curve is the net change since
// the trace began and what was never freed cannot be told.
TEST(MemoryReal, Resnet50AgainstTheJson) {
  const auto json = countFromJson(kResnet);
  const MemoryAnalysis m = analyzeFile(kResnet);
  expectCoreMatches(m, json);
  expectCliMatches(kResnet, json);
  // The figures docs/memory.md quotes.
  EXPECT_EQ(m.events, 12838u);
  const DeviceMemory& gpu = *m.device(0);
  EXPECT_EQ(gpu.events, 8220u);
  EXPECT_EQ(gpu.peakAllocated, 2791636480);
  EXPECT_EQ(gpu.peakAllocatedTs, 1623142623582083000);
  EXPECT_EQ(gpu.allocated.count, 4110u);
  EXPECT_EQ(gpu.freed.count, 4110u);
  EXPECT_EQ(gpu.basis, AllocatedBasis::NetSinceStart);
  EXPECT_FALSE(gpu.peakReserved);
  EXPECT_FALSE(gpu.allAddressed());
  const DeviceMemory& cpu = *m.device(kCpuDevice);
  EXPECT_EQ(cpu.events, 4618u);
  EXPECT_EQ(cpu.peakAllocated, 57803264);
  EXPECT_EQ(cpu.finalAllocated(), 19267840);
}

// PyTorch 2 on an H100: every event states Addr and the totals.
TEST(MemoryReal, BertSmallAgainstTheJson) {
  const auto json = countFromJson(kBert);
  const MemoryAnalysis m = analyzeFile(kBert);
  expectCoreMatches(m, json);
  expectCliMatches(kBert, json);
  const DeviceMemory& gpu = *m.device(0);
  EXPECT_EQ(gpu.basis, AllocatedBasis::Stated);
  EXPECT_EQ(gpu.peakAllocated, 101305344);
  EXPECT_EQ(gpu.peakReserved, 121634816);
  EXPECT_TRUE(gpu.allAddressed());
  EXPECT_EQ(gpu.neverFreed.count, 0u);

  // The report's memory tables: the peak, and what is live at it.
  const JsonDevice& j = json.at(0);
  const report::Table devices = report::memoryDevicesTable(m, 0);
  ASSERT_EQ(devices.rows.size(), 2u);  // CPU, GPU 0
  EXPECT_EQ(std::get<std::int64_t>(devices.rows[1][devices.column("peak_allocated_bytes")]), j.peak);
  EXPECT_EQ(std::get<std::int64_t>(devices.rows[1][devices.column("peak_allocated_at_us")]), j.peakTs);
  const std::vector<const Allocation*> live = liveAllocations(m, 0, gpu.peakAllocatedTs);
  EXPECT_EQ(live.size(), j.liveAtPeak);
  const io::LoadResult loaded = io::loadChromeTrace(kBert);
  ASSERT_TRUE(loaded.ok());
  const report::Table byOp = report::liveByOperatorTable(*loaded.trace, live);
  std::int64_t liveBytes = 0;
  std::int64_t allocations = 0;
  for (const auto& row : byOp.rows) {
    liveBytes += std::get<std::int64_t>(row[byOp.column("bytes")]);
    allocations += std::get<std::int64_t>(row[byOp.column("allocations")]);
  }
  EXPECT_EQ(allocations, static_cast<std::int64_t>(j.liveAtPeak));
  EXPECT_EQ(liveBytes, j.liveBytesAtPeak);
}

}  // namespace
}  // namespace gapscope::memory
