// Output helpers shared by gapscope-cli commands: the --format/--sort/--limit
// options, aligned text tables in the style of PyTorch's key_averages()
// table, CSV with RFC 4180 quoting and JSON through nlohmann. Values are
// written with gapscope/format: exact microseconds in JSON and CSV, the
// styles below in text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "command.h"
#include "gapscope/format/duration.h"
#include "gapscope/format/number.h"
#include "gapscope/report/report.h"

namespace gapscope::cli {

enum class OutputFormat { Text, Json, Csv };

// --format text|json|csv (default text); throws std::invalid_argument
// (exit status 2) for anything else.
OutputFormat formatOption(const Args& args);
// --limit N (default: no limit, returned as SIZE_MAX); throws
// std::invalid_argument when N is not a non-negative integer.
std::size_t limitOption(const Args& args);
// Shortens `rows` to --limit.
template <typename Row>
void applyLimit(std::vector<Row>& rows, const Args& args) {
  const std::size_t limit = limitOption(args);
  if (rows.size() > limit) rows.resize(limit);
}

// Times and percentages in text output, as PyTorch's tables print them:
// "12.345us", "12.34%".
inline constexpr format::DurationStyle kTableTime = format::DurationStyle::TorchTable;
inline constexpr format::PercentStyle kTablePercent = format::PercentStyle::TorchTable;

// A text table like PyTorch's: a dashed rule, the header row, a rule,
// rows, rule. Cells longer than a column's limit are cut with "...".
class TextTable {
 public:
  enum class Align { Left, Right };
  // `maxWidth` 0: as wide as the widest cell.
  void addColumn(std::string header, Align align = Align::Right, std::size_t maxWidth = 0);
  void addRow(std::vector<std::string> cells);
  void print(std::ostream& out) const;
  // The same table in GitHub Markdown, each cell escaped (format::escapeMarkdown).
  void printMarkdown(std::ostream& out) const;

 private:
  struct Column {
    std::string header;
    Align align;
    std::size_t maxWidth;
  };
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// A report table (report/report.h) as a text table in the CLI's style
// (PyTorch's table units), its first `rows` rows; absent cells "-".
TextTable textTableOf(const report::Table& table, std::size_t rows);

// Fields, each quoted by format::csvQuote when it needs it, joined with
// commas and ended with "\n".
void writeCsvRow(std::ostream& out, const std::vector<std::string>& fields);

// Pretty-printed (indent 2) JSON plus a newline; invalid UTF-8 is replaced,
// never thrown on. ordered_json keeps fields in the order they were added.
void writeJson(std::ostream& out, const nlohmann::json& value);
void writeJson(std::ostream& out, const nlohmann::ordered_json& value);

// A JSON object written member by member, byte for byte as writeJson would
// print the whole object, so a member holding millions of rows streams
// element by element instead of being built in memory first:
//   JsonObjectStream o(out);
//   o.member("devices", devices);
//   o.beginArray("gaps"); for (...) o.element(gapJson(...)); o.endArray();
//   o.finish();
// JSON values printed straight into a string, byte for byte as nlohmann's
// dump prints them (numbers through its own shortest round-trip formatter,
// strings escaped alike, invalid UTF-8 replaced): for outputs of millions of
// rows, where building an nlohmann value per row cost more than the rest.
namespace json_text {
void number(std::string& out, double value);
void integer(std::string& out, std::int64_t value);
void string(std::string& out, std::string_view text);
}  // namespace json_text

class JsonObjectStream {
 public:
  explicit JsonObjectStream(std::ostream& out) : out_(out) {}
  void member(const std::string& key, const nlohmann::ordered_json& value);
  void beginArray(const std::string& key);
  void element(const nlohmann::ordered_json& value);
  // An element already printed (JsonText below), its lines after the first
  // indented for the array's depth (4 spaces).
  void rawElement(std::string_view text);
  void endArray();
  void finish();  // the closing brace and newline

 private:
  void key(const std::string& key);
  // `value` pretty-printed, every line after the first indented by `indent` more.
  void writeIndented(const nlohmann::ordered_json& value, int indent);

  std::ostream& out_;
  bool anyMember_ = false;
  bool anyElement_ = false;
};

}  // namespace gapscope::cli
