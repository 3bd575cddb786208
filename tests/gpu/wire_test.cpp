// The frame format between a recorded program and the recorder: every
// record type survives the trip, in any split of the bytes; bad bytes stop
// the stream with an error and keep what came before.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "gapscope/gpu/wire.h"
#include "records_fixture.h"

using namespace gapscope::gpu;

namespace {

RecordSet sample() {
  RecordSet r;
  r.apiCalls.push_back(fixture::api(ApiDomain::Runtime, "cudaLaunchKernel", 100, 900, 7));
  r.apiCalls.back().correlationId = 0x1'0000'0007ull;  // wider than CUPTI's 32 bits
  KernelRecord k = fixture::kernel("void gemm<128>(float*)", 1000, 5000, 7);
  k.grid[1] = 3;
  k.block[2] = 4;
  k.graphId = 12;
  k.graphNodeId = 0xabcdef0123ull;
  r.kernels.push_back(k);
  MemcpyRecord m;
  m.start = 6000;
  m.end = 7000;
  m.bytes = 4;
  m.copyKind = CopyKind::DtoH;
  m.dstKind = MemoryKind::Pinned;
  r.memcpys.push_back(m);
  MemsetRecord s;
  s.bytes = 64;
  s.value = 255;
  r.memsets.push_back(s);
  SyncRecord y;
  y.kind = SyncKind::StreamSynchronize;
  y.streamId = kNoStream;
  r.syncs.push_back(y);
  r.overheads.push_back(OverheadRecord{"Activity Buffer Request", 1, 2, 3});
  HostRange h;
  h.kind = HostRangeKind::Annotation;
  h.name = "forward";
  h.start = 10;
  h.end = 20;
  h.processId = 99;
  h.threadId = 100;
  r.ranges.push_back(h);
  return r;
}

std::string streamOf(const RecordSet& r) {
  std::string bytes;
  wire::ProcessHello hello;
  hello.processId = 4242;
  hello.name = "python3";
  hello.commandLine = "python3 train.py --steps 20";
  hello.clockAnchor = 77;
  hello.wallClockAtAnchor = 1'790'000'000'000'000'001;
  hello.cuptiVersion = 130001;
  wire::encode(bytes, hello);
  wire::encode(bytes, fixture::h200());
  EXPECT_EQ(wire::encodeRecords(bytes, r), 7u);
  wire::encode(bytes, wire::CaptureMark{true, 5});
  wire::encode(bytes, wire::ChannelStats{3, 4});
  wire::encodeNote(bytes, "hello, recorder");
  wire::encodeBye(bytes);
  return bytes;
}

void expectSame(const RecordSet& a, const RecordSet& b) {
  ASSERT_EQ(b.apiCalls.size(), 1u);
  EXPECT_EQ(b.apiCalls[0].name, a.apiCalls[0].name);
  EXPECT_EQ(b.apiCalls[0].correlationId, a.apiCalls[0].correlationId);
  EXPECT_EQ(b.apiCalls[0].threadId, a.apiCalls[0].threadId);
  ASSERT_EQ(b.kernels.size(), 1u);
  EXPECT_EQ(b.kernels[0].name, a.kernels[0].name);
  EXPECT_EQ(b.kernels[0].grid[1], 3);
  EXPECT_EQ(b.kernels[0].block[2], 4);
  EXPECT_EQ(b.kernels[0].graphNodeId, a.kernels[0].graphNodeId);
  EXPECT_EQ(b.kernels[0].streamId, fixture::kStream);
  ASSERT_EQ(b.memcpys.size(), 1u);
  EXPECT_EQ(b.memcpys[0].copyKind, CopyKind::DtoH);
  EXPECT_EQ(b.memcpys[0].dstKind, MemoryKind::Pinned);
  ASSERT_EQ(b.memsets.size(), 1u);
  EXPECT_EQ(b.memsets[0].value, 255u);
  ASSERT_EQ(b.syncs.size(), 1u);
  EXPECT_EQ(b.syncs[0].kind, SyncKind::StreamSynchronize);
  EXPECT_EQ(b.syncs[0].streamId, kNoStream);
  ASSERT_EQ(b.overheads.size(), 1u);
  EXPECT_EQ(b.overheads[0].name, "Activity Buffer Request");
  ASSERT_EQ(b.ranges.size(), 1u);
  EXPECT_EQ(b.ranges[0].name, "forward");
  EXPECT_EQ(b.ranges[0].processId, 99u);
  EXPECT_EQ(b.ranges[0].kind, HostRangeKind::Annotation);
}

}  // namespace

TEST(Wire, EveryRecordSurvivesInAnySplit) {
  const RecordSet in = sample();
  const std::string bytes = streamOf(in);
  for (std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{7}, bytes.size()}) {
    wire::Decoder d;
    for (std::size_t i = 0; i < bytes.size(); i += chunk)
      ASSERT_TRUE(d.feed(bytes.data() + i, std::min(chunk, bytes.size() - i))) << d.error();
    EXPECT_EQ(d.pendingBytes(), 0u);
    const wire::ProcessStream& s = d.stream();
    EXPECT_TRUE(s.saidHello);
    EXPECT_TRUE(s.saidBye);
    EXPECT_EQ(s.records.processId, 4242u);
    EXPECT_EQ(s.records.processName, "python3");
    EXPECT_EQ(s.hello.commandLine, "python3 train.py --steps 20");
    EXPECT_EQ(s.records.wallClockAtAnchor, 1'790'000'000'000'000'001);
    EXPECT_EQ(s.records.cuptiVersion, 130001);
    ASSERT_EQ(s.records.devices.size(), 1u);
    EXPECT_EQ(s.records.devices[0].name, "NVIDIA H200");
    EXPECT_EQ(s.records.devices[0].sharedMemPerBlockOptin, 232448);
    expectSame(in, s.records);
    ASSERT_EQ(s.captureMarks.size(), 1u);
    EXPECT_EQ(s.captureMarks[0].at, 5u);
    EXPECT_EQ(s.stats.cuptiDropped, 3u);
    EXPECT_EQ(s.stats.channelDropped, 4u);
    ASSERT_EQ(s.notes.size(), 1u);
    EXPECT_EQ(s.notes[0], "hello, recorder");
    EXPECT_EQ(s.frames, 13u);  // hello, device, 7 records, capture, stats, note, bye
  }
}

TEST(Wire, AnIncompleteFrameWaits) {
  std::string bytes;
  wire::encode(bytes, fixture::kernel("k", 1, 2, 3));
  wire::Decoder d;
  ASSERT_TRUE(d.feed(bytes.data(), bytes.size() - 1));
  EXPECT_TRUE(d.stream().records.kernels.empty());
  EXPECT_EQ(d.pendingBytes(), bytes.size() - 1);
  ASSERT_TRUE(d.feed(bytes.data() + bytes.size() - 1, 1));
  EXPECT_EQ(d.stream().records.kernels.size(), 1u);
}

TEST(Wire, ATruncatedPayloadIsMalformedAndEarlierRecordsStay) {
  std::string bytes;
  wire::encode(bytes, fixture::kernel("first", 1, 2, 3));
  std::string bad;
  wire::encode(bad, fixture::kernel("second", 1, 2, 3));
  std::uint32_t shorter = static_cast<std::uint32_t>(bad.size() - 5 - 10);  // the name's bytes cut off
  std::memcpy(bad.data(), &shorter, sizeof shorter);
  bad.resize(5 + shorter);
  bytes += bad;
  wire::Decoder d;
  EXPECT_FALSE(d.feed(bytes.data(), bytes.size()));
  EXPECT_NE(d.error().find("frame 2"), std::string::npos) << d.error();
  EXPECT_EQ(d.stream().records.kernels.size(), 1u);
  EXPECT_FALSE(d.feed("x", 1));  // stays stopped
}

TEST(Wire, AnAbsurdLengthStopsTheStream) {
  std::string bytes(5, '\0');
  std::uint32_t huge = 0xffffffffu;
  std::memcpy(bytes.data(), &huge, sizeof huge);
  wire::Decoder d;
  EXPECT_FALSE(d.feed(bytes.data(), bytes.size()));
  EXPECT_NE(d.error().find("claims"), std::string::npos);
}

TEST(Wire, UnknownFrameTypesAreSkipped) {
  std::string bytes;
  std::uint32_t len = 3;
  bytes.append(reinterpret_cast<const char*>(&len), 4);
  bytes.push_back(static_cast<char>(200));
  bytes.append("abc");
  wire::encode(bytes, fixture::kernel("after", 1, 2, 3));
  wire::Decoder d;
  ASSERT_TRUE(d.feed(bytes.data(), bytes.size())) << d.error();
  ASSERT_EQ(d.stream().records.kernels.size(), 1u);
  EXPECT_EQ(d.stream().records.kernels[0].name, "after");
}

namespace {

wire::ProcessHello rankHello() {
  wire::ProcessHello h;
  h.processId = 7;
  h.name = "python3";
  h.cuptiVersion = 130001;
  h.distributed = DistributedRank{3, 8, 1};
  return h;
}

}  // namespace

TEST(Wire, TheHelloCarriesTheRank) {
  std::string bytes;
  wire::encode(bytes, rankHello());
  wire::encode(bytes, fixture::kernel("after", 1, 2, 3));
  wire::Decoder d;
  ASSERT_TRUE(d.feed(bytes.data(), bytes.size())) << d.error();
  const wire::ProcessStream& s = d.stream();
  EXPECT_EQ(s.hello.distributed.rank, 3);
  EXPECT_EQ(s.hello.distributed.worldSize, 8);
  EXPECT_EQ(s.hello.distributed.localRank, 1);
  EXPECT_EQ(s.records.distributed.rank, 3);
  EXPECT_EQ(s.hello.cuptiVersion, 130001);
  EXPECT_EQ(s.records.kernels.size(), 1u);
}

// A hello as injection libraries wrote it before the rank was added: the
// same payload without its last 12 bytes still reads, the rank unknown.
TEST(Wire, AHelloWithoutTheRankStillReads) {
  std::string bytes;
  wire::encode(bytes, rankHello());
  std::uint32_t shorter = 0;
  std::memcpy(&shorter, bytes.data(), sizeof shorter);
  shorter -= 3 * sizeof(std::int32_t);
  std::memcpy(bytes.data(), &shorter, sizeof shorter);
  bytes.resize(5 + shorter);
  wire::encode(bytes, fixture::kernel("after", 1, 2, 3));
  wire::Decoder d;
  ASSERT_TRUE(d.feed(bytes.data(), bytes.size())) << d.error();
  EXPECT_TRUE(d.stream().saidHello);
  EXPECT_EQ(d.stream().hello.cuptiVersion, 130001);
  EXPECT_FALSE(d.stream().hello.distributed.known());
  EXPECT_EQ(d.stream().records.kernels.size(), 1u);
}

TEST(Wire, TheRankComesFromTheEnvironment) {
  ::setenv("RANK", "5", 1);
  ::setenv("WORLD_SIZE", "16", 1);
  ::setenv("LOCAL_RANK", "x1", 1);  // not a number: unknown
  DistributedRank d = wire::distributedRankFromEnvironment();
  EXPECT_EQ(d.rank, 5);
  EXPECT_EQ(d.worldSize, 16);
  EXPECT_EQ(d.localRank, -1);
  ::setenv("RANK", "-2", 1);
  ::setenv("WORLD_SIZE", "99999999999", 1);  // does not fit
  ::unsetenv("LOCAL_RANK");
  d = wire::distributedRankFromEnvironment();
  EXPECT_EQ(d.rank, -1);
  EXPECT_EQ(d.worldSize, -1);
  EXPECT_FALSE(d.known());
  ::unsetenv("RANK");
  ::unsetenv("WORLD_SIZE");
}
