#include "gapscope/model/string_table.h"

#include <gtest/gtest.h>

#include <string>

using gapscope::StringTable;

TEST(StringTable, EmptyStringIsIdZero) {
  StringTable t;
  EXPECT_EQ(t.intern(""), gapscope::kEmptyString);
  EXPECT_EQ(t.view(0), "");
}

TEST(StringTable, InternsOnceAndViewsStayValid) {
  StringTable t;
  auto a = t.intern("aten::mm");
  std::string_view held = t.view(a);
  for (int i = 0; i < 100000; ++i) t.intern("name" + std::to_string(i));
  EXPECT_EQ(t.intern("aten::mm"), a);
  EXPECT_EQ(held, "aten::mm");
  gapscope::StringId found = 0;
  EXPECT_TRUE(t.find("name99999", &found));
  EXPECT_EQ(t.view(found), "name99999");
  EXPECT_FALSE(t.find("absent", &found));
}

TEST(StringTable, LongStringsGetTheirOwnBlock) {
  StringTable t;
  std::string big(200000, 'k');
  auto id = t.intern(big);
  EXPECT_EQ(t.view(id), big);
  EXPECT_EQ(t.view(t.intern("small")), "small");
}
