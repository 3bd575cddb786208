// NameCache (the reader's cache in front of the string table): every name
// gets the id the builder's own interning gives it, and a short name's hash
// depends on each of its bytes (a byte left out would make names that
// differ only there share a cache slot and miss each other forever).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gapscope/model/trace_builder.h"
#include "name_cache.h"

namespace {

using gapscope::TraceBuilder;
using gapscope::io::NameCache;
using gapscope::io::sampleHash;

// Names of every length up to 40, and for each its variants with one byte changed.
std::vector<std::string> namesDifferingInOneByte() {
  std::vector<std::string> names;
  for (std::size_t n = 1; n <= 40; ++n) {
    std::string base(n, 'a');
    for (std::size_t i = 0; i < n; ++i) base[i] = static_cast<char>('a' + (i * 7) % 26);
    names.push_back(base);
    for (std::size_t i = 0; i < n; ++i) {
      std::string v = base;
      v[i] = '#';
      names.push_back(v);
    }
  }
  return names;
}

TEST(NameCache, GivesTheBuildersIdForEveryName) {
  const std::vector<std::string> names = namesDifferingInOneByte();
  TraceBuilder cached;
  TraceBuilder direct;
  NameCache cache;
  for (int pass = 0; pass < 2; ++pass) {  // the second pass hits the cache
    for (const std::string& name : names) {
      const auto id = cache.get(cached, name);
      EXPECT_EQ(cached.str(id), name);
      EXPECT_EQ(id, direct.intern(name)) << name;
    }
  }
  EXPECT_EQ(cache.get(cached, ""), gapscope::kEmptyString);
}

TEST(NameCache, AShortNamesHashDependsOnEachByte) {
  for (std::size_t n = 1; n < 24; ++n) {
    const std::string base(n, 'x');
    for (std::size_t i = 0; i < n; ++i) {
      std::string changed = base;
      changed[i] = 'y';
      EXPECT_NE(sampleHash(base), sampleHash(changed)) << "length " << n << ", byte " << i;
    }
  }
}

TEST(NameCache, NamesOfOneLengthAndDifferentLengthsHashApart) {
  EXPECT_NE(sampleHash(std::string(5, 'a')), sampleHash(std::string(6, 'a')));
  EXPECT_NE(sampleHash(std::string(8, '\0')), sampleHash(std::string(9, '\0')));
  EXPECT_NE(sampleHash("cpu_op"), sampleHash("kernel"));
}

// pid and tid ids: made once per text and kind while a chunk is parsed,
// made again after reset() (a new chunk: its texts lie elsewhere), and
// right for more texts than the cache keeps.
TEST(NameCache, MakesAnIdOncePerTextAndKindUntilReset) {
  NameCache cache;
  int made = 0;
  auto idOf = [&](std::uint8_t kind, std::string_view text) {
    return cache.id(kind, text, [&] {
      ++made;
      return gapscope::ChromeId{static_cast<std::int64_t>(text.size()) * 10 + kind, gapscope::kEmptyString};
    });
  };
  const std::string a = "1234";
  const std::string sameText = "1234";  // another place, the same text
  EXPECT_EQ(idOf(1, a).num, 41);
  EXPECT_EQ(idOf(1, sameText).num, 41);
  EXPECT_EQ(made, 1);
  EXPECT_EQ(idOf(2, a).num, 42);  // a string "1234", not the number
  EXPECT_EQ(made, 2);
  std::vector<std::string> many;
  for (int i = 0; i < 20; ++i) many.push_back(std::string(static_cast<std::size_t>(i + 1), 'x'));
  for (int pass = 0; pass < 2; ++pass)
    for (const std::string& text : many) EXPECT_EQ(idOf(1, text).num, static_cast<std::int64_t>(text.size()) * 10 + 1);
  cache.reset();
  made = 0;
  idOf(1, a);
  EXPECT_EQ(made, 1);
}

}  // namespace
