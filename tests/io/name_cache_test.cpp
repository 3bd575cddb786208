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

}  // namespace
