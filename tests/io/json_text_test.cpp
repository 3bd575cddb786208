// The exact helpers: value extents, speculative cuts, strict checking.
#include <gtest/gtest.h>

#include "json_text.h"

using namespace gapscope::io;

TEST(JsonText, ValueEndTracksStringsEscapesAndDepth) {
  std::string_view t = R"({"a":"}]\"{","b":[1,{"c":"\\"}]} tail)";
  ValueExtent e = scanValueEnd(t, 0);
  ASSERT_TRUE(e.complete);
  EXPECT_EQ(t.substr(e.end), " tail");
  EXPECT_FALSE(scanValueEnd(R"({"a":"}")", 0).complete);
  EXPECT_FALSE(scanValueEnd(R"({"a":[1,2])", 0).complete);
  EXPECT_EQ(scanValueEnd("123, 4", 0).end, 3u);
  EXPECT_FALSE(scanValueEnd("123", 0).complete);  // may continue in the next chunk
  EXPECT_EQ(scanValueEnd(R"("x\\" ,)", 0).end, 5u);
}

TEST(JsonText, SeparatorSearchFindsTheLastPlausibleBoundary) {
  std::string_view t = "{\"a\":1},\n  {\"b\":2} , {\"c\":";
  std::size_t cut = findEventSeparatorBackward(t, t.size());
  ASSERT_NE(cut, std::string_view::npos);
  EXPECT_EQ(t[cut], ',');
  EXPECT_EQ(t.substr(cut + 1), " {\"c\":");
  EXPECT_EQ(findEventSeparatorBackward("{\"a\":1}", 7), std::string_view::npos);
  EXPECT_EQ(findEventSeparatorBackward("[1, {\"a\":1}]", 12), std::string_view::npos);
}

TEST(JsonText, CheckerAcceptsValidJson) {
  std::string_view t = R"( {"a": [1, -2.5e3, true, false, null, "x\u00e9\n"], "b": {}} rest)";
  JsonCheck c = checkJsonValue(t, 1);
  EXPECT_EQ(c.status, JsonCheck::Status::Ok);
  EXPECT_EQ(t.substr(c.pos), " rest");
}

TEST(JsonText, CheckerNamesWhatWasExpected) {
  auto check = [](std::string_view t) { return checkJsonValue(t, 0); };
  JsonCheck c = check(R"({"a": 1 "b": 2})");
  EXPECT_EQ(c.status, JsonCheck::Status::Error);
  EXPECT_EQ(c.pos, 8u);
  EXPECT_EQ(c.message, "expected ',' or '}' after an object member, found '\"'");
  EXPECT_EQ(check(R"({"a" 1})").message, "expected ':' after an object key, found '1'");
  EXPECT_EQ(check(R"([1 2])").message, "expected ',' or ']' after an array element, found '2'");
  EXPECT_EQ(check(R"({"a": tru})").message, "invalid literal (expected true, false or null), found '}'");
  EXPECT_EQ(check(R"({"a": "\q"})").message, "invalid escape sequence in a string, found 'q'");
  EXPECT_EQ(check("{\"a\": \"\x01\"}").message, "unescaped control character in a string, found byte 0x01");
  EXPECT_EQ(check(R"({1: 2})").message, "expected '\"' to start an object key, found '1'");
  EXPECT_EQ(check(R"([,])").message, "expected a value, found ','");
  EXPECT_EQ(check(R"(-x)").message, "expected a digit in a number, found 'x'");
}

TEST(JsonText, CheckerTellsTruncationFromErrors) {
  EXPECT_EQ(checkJsonValue(R"({"a": [1, 2)", 0).status, JsonCheck::Status::EndOfInput);
  EXPECT_EQ(checkJsonValue(R"({"a": "abc)", 0).status, JsonCheck::Status::EndOfInput);
  EXPECT_EQ(checkJsonValue(R"({"a": 12)", 0).status, JsonCheck::Status::EndOfInput);
  EXPECT_EQ(checkJsonValue(R"({"a": tr)", 0).status, JsonCheck::Status::EndOfInput);
}

TEST(JsonText, CheckerSurvivesDeepNesting) {
  std::string deep(200000, '[');
  EXPECT_EQ(checkJsonValue(deep, 0).status, JsonCheck::Status::EndOfInput);
  deep += std::string(200000, ']');
  EXPECT_EQ(checkJsonValue(deep, 0).status, JsonCheck::Status::Ok);
}

TEST(JsonText, Unescape) {
  std::string out;
  ASSERT_TRUE(unescapeJsonString(R"(a\"b\\c\u00e9\ud83d\ude00)", &out));
  EXPECT_EQ(out, "a\"b\\c\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_FALSE(unescapeJsonString(R"(\x)", &out));
}
