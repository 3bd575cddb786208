// A .json.gz read once is indexed so that any event's args can be inflated
// again from the nearest point before them (gzip_index.h). Checked against
// the text itself: every args object, fetched in file order, in reverse and
// at random, from one gzip member and from many, and from the second half of
// a file whose first half was destroyed after indexing (so the points, not a
// restart from the file's first byte, are what resumes).
#include "gzip_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "../support/gzip_text.h"
#include "byte_source.h"
#include "test_util.h"

using gapscope::ArgsRef;
using gapscope::ArgsSource;
using gapscope::io::openFileSource;
using gapscope::testing::TempFile;

namespace {

constexpr std::uint64_t kSpan = 16 << 10;

// Kineto-like events whose args vary enough that deflate makes many blocks.
struct Text {
  std::string json;
  std::vector<ArgsRef> args;
};

Text eventsWithArgs(int events) {
  Text t;
  std::mt19937 rng(7);
  t.json = "[";
  for (int i = 0; i < events; ++i) {
    t.json += R"({"ph":"X","name":"op)" + std::to_string(rng() % 50) + R"(","pid":1,"tid":1,"ts":)" +
              std::to_string(i) + R"(,"dur":1,"args":)";
    std::string a = R"({"External id": )" + std::to_string(rng()) + R"(, "Input Dims": [[)" +
                    std::to_string(rng() % 4096) + ", " + std::to_string(rng() % 512) + R"(]], "seq": )" +
                    std::to_string(i) + "}";
    t.args.push_back({t.json.size(), static_cast<std::uint32_t>(a.size())});
    t.json += a + "},";
  }
  t.json += "{}]";
  return t;
}

// Reads the whole file through the source (as the reader does), checks the
// text, and returns what fetches args by offset.
std::shared_ptr<const ArgsSource> indexed(const std::string& path, const std::string& expected) {
  std::string error;
  auto source = openFileSource(path, &error, kSpan);
  EXPECT_TRUE(source) << error;
  EXPECT_TRUE(source->rereadable());
  std::string text;
  std::vector<char> buf(100000);
  while (std::size_t n = source->read(buf.data(), buf.size())) text.append(buf.data(), n);
  EXPECT_TRUE(source->error().empty()) << source->error();
  EXPECT_EQ(text, expected);
  return source->argsByOffset();
}

void expectEveryArgs(const ArgsSource& args, const Text& t, const std::vector<std::size_t>& order) {
  for (std::size_t i : order) {
    const ArgsRef& r = t.args[i];
    ASSERT_EQ(args.fetch(r), t.json.substr(r.offset, r.length)) << "args " << i << " at " << r.offset;
  }
}

std::vector<std::size_t> inFileOrder(std::size_t n) {
  std::vector<std::size_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

class GzipIndex : public ::testing::Test {
 protected:
  const Text text = eventsWithArgs(6000);  // about 800 KB: some 50 points
};

TEST_F(GzipIndex, OneMemberEveryArgsInAnyOrder) {
  TempFile f(".json.gz");
  f.write(gapscope::testing::gzipText(text.json, 6));
  auto args = indexed(f.path(), text.json);
  ASSERT_TRUE(args);
  auto order = inFileOrder(text.args.size());
  expectEveryArgs(*args, text, order);
  std::reverse(order.begin(), order.end());
  expectEveryArgs(*args, text, order);
  std::shuffle(order.begin(), order.end(), std::mt19937(11));
  order.resize(400);
  expectEveryArgs(*args, text, order);
}

TEST_F(GzipIndex, ManyMembersCutAnywhere) {
  // bgzip-like: members of a few KiB, cut inside events and inside args;
  // more of them than one compressed read (256 KiB) holds, so that a
  // member's header lies across two reads.
  const Text many = eventsWithArgs(12000);
  std::string bytes;
  for (std::size_t at = 0; at < many.json.size(); at += 5003) bytes += gapscope::testing::gzipText(many.json.substr(at, 5003), 1);
  ASSERT_GT(bytes.size(), std::size_t{256} << 10);
  TempFile f(".json.gz");
  f.write(bytes);
  auto args = indexed(f.path(), many.json);
  ASSERT_TRUE(args);
  auto order = inFileOrder(many.args.size());
  std::shuffle(order.begin(), order.end(), std::mt19937(5));
  expectEveryArgs(*args, many, order);
}

TEST_F(GzipIndex, ResumesFromAPointNotFromTheStart) {
  for (bool manyMembers : {false, true}) {
    std::string bytes;
    if (manyMembers) {
      for (std::size_t at = 0; at < text.json.size(); at += 20000) bytes += gapscope::testing::gzipText(text.json.substr(at, 20000), 6);
    } else {
      bytes = gapscope::testing::gzipText(text.json, 6);
    }
    TempFile f(".json.gz");
    f.write(bytes);
    auto args = indexed(f.path(), text.json);
    ASSERT_TRUE(args);
    // Destroy the first half of the compressed file after indexing.
    std::string ruined = bytes;
    std::fill(ruined.begin(), ruined.begin() + static_cast<std::ptrdiff_t>(ruined.size() / 2), '\x55');
    f.write(ruined);
    const std::size_t lastQuarter = text.args.size() * 3 / 4;
    std::vector<std::size_t> order;
    for (std::size_t i = text.args.size(); i-- > lastQuarter;) order.push_back(i);
    expectEveryArgs(*args, text, order);
    // What lay in the ruined half cannot be inflated: no text, no crash.
    EXPECT_EQ(args->fetch(text.args[10]), "");
  }
}

TEST_F(GzipIndex, LoadedTraceFetchesArgsFromTheGzipFile) {
  TempFile plain(".json");
  plain.write(text.json);
  TempFile gz(".json.gz");
  gz.write(gapscope::testing::gzipText(text.json, 6));
  auto a = gapscope::io::loadChromeTrace(plain.path());
  auto b = gapscope::io::loadChromeTrace(gz.path());
  ASSERT_TRUE(a.ok() && b.ok()) << a.error << b.error;
  ASSERT_EQ(a.trace->slices.size(), b.trace->slices.size());
  for (std::size_t i = 0; i < a.trace->slices.size(); ++i) {
    // Offsets in the text, as for a plain file: no copy of the args kept.
    ASSERT_EQ(a.trace->slices[i].args.offset, b.trace->slices[i].args.offset);
    ASSERT_EQ(a.trace->argsJson(a.trace->slices[i]), b.trace->argsJson(b.trace->slices[i]));
  }
}

// The text's size, as the reader sizes its parsers and arrays by it: the
// gzip trailer's ISIZE for one member; for several members that trailer
// holds only the last one's size, so the estimate falls back to 10x the file.
TEST(GzipTextSize, TheTrailersSizeForOneMemberAnEstimateForSeveral) {
  const Text t = eventsWithArgs(3000);
  TempFile one(".json.gz");
  one.write(gapscope::testing::gzipText(t.json));
  std::string error;
  auto a = openFileSource(one.path(), &error);
  ASSERT_TRUE(a) << error;
  EXPECT_EQ(a->expectedTextBytes(), t.json.size());

  const std::string tail = " ";
  TempFile several(".json.gz");
  const std::string bytes = gapscope::testing::gzipText(t.json) + gapscope::testing::gzipText(tail);
  several.write(bytes);
  auto b = openFileSource(several.path(), &error);
  ASSERT_TRUE(b) << error;
  EXPECT_EQ(b->expectedTextBytes(), bytes.size() * 10);
}

}  // namespace
