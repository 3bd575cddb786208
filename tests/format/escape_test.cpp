// cleanText and the escaping for HTML, Markdown and CSV, character by
// character.
#include "gapscope/format/escape.h"

#include <gtest/gtest.h>

#include <string>

namespace gapscope::format {
namespace {

const std::string kRep = "\xEF\xBF\xBD";  // U+FFFD, the replacement character

struct TextCase {
  std::string in;
  std::string want;
};

TEST(CleanText, ReplacesInvalidUtf8AndControls) {
  const TextCase cases[] = {
      {"", ""},
      {"plain", "plain"},
      {"a\nb\tc\r", "a b c "},
      {std::string("x\x01y", 3), "x" + kRep + "y"},
      {std::string("\0", 1), kRep},
      {"\x7f", kRep},
      {"\xff", kRep},
      {"\xC0\xAF", kRep + kRep},                     // overlong '/'
      {"\xED\xA0\x80", kRep + kRep + kRep},             // a surrogate
      {"\xF4\x90\x80\x80", kRep + kRep + kRep + kRep},     // above U+10FFFF
      {"\xE2\x9C", kRep + kRep},                     // cut short
      {"a\x80z", "a" + kRep + "z"},               // a lone continuation byte
      {"\xC2\xB5s \xE2\x9C\x93", "\xC2\xB5s \xE2\x9C\x93"},  // "µs ✓" stays
      {"\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80"},              // four bytes stay
  };
  for (const auto& c : cases) EXPECT_EQ(cleanText(c.in), c.want) << c.in;
}

TEST(EscapeHtml, EachSpecialCharacter) {
  const TextCase cases[] = {
      {"&", "&amp;"},
      {"<", "&lt;"},
      {">", "&gt;"},
      {"\"", "&quot;"},
      {"'", "&#39;"},
      {"<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
      {"a & \"b\" 'c'", "a &amp; &quot;b&quot; &#39;c&#39;"},
      {"a\x01<\xff", "a" + kRep + "&lt;" + kRep},  // cleaned first
      {"", ""},
  };
  for (const auto& c : cases) EXPECT_EQ(escapeHtml(c.in), c.want) << c.in;
}

TEST(EscapeMarkdown, EachSpecialCharacter) {
  for (char c : std::string("\\`*_[]<>|~#!&")) EXPECT_EQ(escapeMarkdown(std::string(1, c)), std::string("\\") + c);
  const TextCase cases[] = {
      {"a|b", "a\\|b"},
      {"`code` *x* _y_ [l](u)", "\\`code\\` \\*x\\* \\_y\\_ \\[l\\](u)"},
      {"<b>&amp;", "\\<b\\>\\&amp;"},
      {"two\nlines", "two lines"},
      {"back\\slash", "back\\\\slash"},
      {"a.b-c(d)", "a.b-c(d)"},  // no markup starts with these
      {"\xff|", kRep + "\\|"},
      {"", ""},
  };
  for (const auto& c : cases) EXPECT_EQ(escapeMarkdown(c.in), c.want) << c.in;
}

TEST(CsvQuote, QuotesOnlyWhatNeedsIt) {
  const TextCase cases[] = {
      {"plain", "plain"},
      {"", ""},
      {"a,b", "\"a,b\""},
      {"say \"hi\"", "\"say \"\"hi\"\"\""},
      {"a\rb", "\"a\rb\""},
      {"a\nb", "\"a\nb\""},
      {"=1", "=1"},      // as is: no formula guard
      {"\xff", "\xff"},  // and no cleaning
  };
  for (const auto& c : cases) EXPECT_EQ(csvQuote(c.in), c.want) << c.in;
}

TEST(CsvText, CleansQuotesAndDefusesFormulas) {
  const TextCase cases[] = {
      {"plain", "plain"},
      {"", ""},
      {"a,b", "\"a,b\""},
      {"say \"hi\"", "\"say \"\"hi\"\"\""},
      {"two\nlines", "\"two\nlines\""},  // newlines stay
      {"two\r\nlines", "\"two \nlines\""},
      {"a\rb", "a b"},
      {"=1+2", "'=1+2"},
      {"+1", "'+1"},
      {"-x", "'-x"},
      {"@SUM(A1)", "'@SUM(A1)"},
      {"=a,b", "\"'=a,b\""},
      {"\t=1", " =1"},  // the tab is a space by then: no formula
      {" =1", " =1"},
      {"\n=x", "\"\n=x\""},
      {"\xff", kRep},
  };
  for (const auto& c : cases) EXPECT_EQ(csvText(c.in), c.want) << c.in;
}

}  // namespace
}  // namespace gapscope::format
