// The bounded channel: pushing never waits for a slow reader; what does not
// fit is refused and counted, so records delivered + records dropped =
// records pushed, exactly.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "gapscope/gpu/record_channel.h"
#include "gapscope/gpu/wire.h"
#include "records_fixture.h"

using namespace gapscope::gpu;

namespace {

struct Pair {
  int writer = -1;
  int reader = -1;
  Pair() {
    int fds[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    writer = fds[0];
    reader = fds[1];
  }
};

// Reads until the writer closes; returns the decoded stream.
wire::ProcessStream drain(int fd) {
  wire::Decoder d;
  char buf[1 << 16];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) EXPECT_TRUE(d.feed(buf, static_cast<std::size_t>(n))) << d.error();
  ::close(fd);
  return d.stream();
}

std::string batch(std::uint32_t first, std::uint32_t count) {
  RecordSet r;
  for (std::uint32_t i = 0; i < count; ++i) r.kernels.push_back(fixture::kernel("kernel", i, i + 1, first + i));
  std::string frames;
  wire::encodeRecords(frames, r);
  return frames;
}

}  // namespace

TEST(RecordChannel, DeliversEverythingToAReadyReader) {
  Pair p;
  std::thread reader;
  wire::ProcessStream got;
  reader = std::thread([&] { got = drain(p.reader); });
  {
    RecordChannel ch(p.writer, 1 << 20);
    for (std::uint32_t b = 0; b < 100; ++b) ch.tryPush(batch(b * 10, 10), 10);
    ch.close(std::chrono::seconds(5));
    EXPECT_EQ(ch.droppedRecords(), 0u);
  }
  reader.join();
  EXPECT_EQ(got.records.kernels.size(), 1000u);
  EXPECT_EQ(got.records.kernels.back().correlationId, 999u);
}

TEST(RecordChannel, ASlowReaderCostsRecordsThatAreCountedNotWaitedFor) {
  Pair p;
  const std::uint32_t batches = 2000, perBatch = 50;  // ~ 8 MB of frames
  RecordChannel ch(p.writer, 64 << 10);             // 64 KiB: far less
  auto t0 = std::chrono::steady_clock::now();
  std::uint64_t accepted = 0;
  for (std::uint32_t b = 0; b < batches; ++b)
    if (ch.tryPush(batch(b * perBatch, perBatch), perBatch)) accepted += perBatch;
  auto pushing = std::chrono::steady_clock::now() - t0;
  EXPECT_LT(pushing, std::chrono::seconds(5)) << "pushing waited for the reader";
  EXPECT_GT(ch.droppedRecords(), 0u);
  EXPECT_EQ(accepted + ch.droppedRecords(), std::uint64_t{batches} * perBatch);
  // Control frames pass the full channel: the drop count reaches the reader.
  std::string stats;
  wire::encode(stats, wire::ChannelStats{0, ch.droppedRecords()});
  wire::encodeBye(stats);
  ch.pushControl(std::move(stats));
  std::thread reader;
  wire::ProcessStream got;
  reader = std::thread([&] { got = drain(p.reader); });
  ch.close(std::chrono::seconds(10));
  reader.join();
  EXPECT_TRUE(got.saidBye);
  EXPECT_EQ(got.records.kernels.size(), accepted);
  EXPECT_EQ(got.records.kernels.size() + got.stats.channelDropped, std::uint64_t{batches} * perBatch);
}

TEST(RecordChannel, NoticesWhenTheRecorderIsGone) {
  Pair p;
  RecordChannel ch(p.writer, 1 << 20);
  ::close(p.reader);
  for (int i = 0; i < 200 && !ch.peerGone(); ++i) {
    ch.tryPush(batch(0, 10), 10);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(ch.peerGone());
  // After the recorder stopped, records are not losses: nobody wants them.
  std::uint64_t before = ch.droppedRecords();
  EXPECT_FALSE(ch.tryPush(batch(0, 10), 10));
  EXPECT_EQ(ch.droppedRecords(), before);
}
