#include "output.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <ostream>
#include <stdexcept>

#include "gapscope/format/escape.h"

namespace gapscope::cli {

OutputFormat formatOption(const Args& args) {
  const std::string format = args.get("format", "text");
  if (format == "text") return OutputFormat::Text;
  if (format == "json") return OutputFormat::Json;
  if (format == "csv") return OutputFormat::Csv;
  throw std::invalid_argument("--format expects text, json or csv, got '" + format + "'");
}

std::size_t limitOption(const Args& args) {
  if (!args.has("limit")) return std::numeric_limits<std::size_t>::max();
  const long long n = args.getInt("limit", -1);
  if (n < 0) throw std::invalid_argument("--limit expects a non-negative integer, got '" + args.get("limit") + "'");
  return static_cast<std::size_t>(n);
}

void TextTable::addColumn(std::string header, Align align, std::size_t maxWidth) {
  columns_.push_back({std::move(header), align, maxWidth});
}

void TextTable::addRow(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    const std::size_t limit = columns_[c].maxWidth;
    if (limit > 3 && cells[c].size() > limit) cells[c] = cells[c].substr(0, limit - 3) + "...";
  }
  rows_.push_back(std::move(cells));
}

namespace {

void writePadded(std::ostream& out, const std::string& text, std::size_t width, TextTable::Align align) {
  const std::string pad(width > text.size() ? width - text.size() : 0, ' ');
  if (align == TextTable::Align::Right) {
    out << pad << text;
  } else {
    out << text << pad;
  }
}

}  // namespace

void TextTable::print(std::ostream& out) const {
  std::vector<std::size_t> widths;
  for (const Column& c : columns_) widths.push_back(c.header.size());
  for (const auto& row : rows_) {
    for (std::size_t c = 0; c < columns_.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  auto rule = [&] {
    for (std::size_t c = 0; c < columns_.size(); ++c) out << (c ? "  " : "") << std::string(widths[c], '-');
    out << '\n';
  };
  auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      if (c) out << "  ";
      // The last left-aligned cell needs no padding (no trailing blanks).
      const bool last = c + 1 == columns_.size();
      const auto align = columns_[c].align;
      writePadded(out, cells[c], last && align == Align::Left ? 0 : widths[c], align);
    }
    out << '\n';
  };
  std::vector<std::string> headers;
  for (const Column& c : columns_) headers.push_back(c.header);
  rule();
  line(headers);
  rule();
  for (const auto& row : rows_) line(row);
  rule();
}

void TextTable::printMarkdown(std::ostream& out) const {
  const auto line = [&](const std::vector<std::string>& cells) {
    out << '|';
    for (const std::string& cell : cells) out << ' ' << format::escapeMarkdown(cell) << " |";
    out << '\n';
  };
  std::vector<std::string> headers;
  for (const Column& c : columns_) headers.push_back(c.header);
  line(headers);
  out << '|';
  for (const Column& c : columns_) out << (c.align == Align::Left ? " :--- |" : " ---: |");
  out << '\n';
  for (const auto& row : rows_) line(row);
}

void writeCsvRow(std::ostream& out, const std::vector<std::string>& fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << format::csvQuote(fields[i]);
  out << '\n';
}

void writeJson(std::ostream& out, const nlohmann::json& value) {
  out << value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

void writeJson(std::ostream& out, const nlohmann::ordered_json& value) {
  out << value.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
}

namespace json_text {

void number(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  char buf[64];
  const char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, static_cast<std::size_t>(end - buf));
}

void integer(std::string& out, std::int64_t value) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

// Printable ASCII without quote or backslash is written as it is (kernel and
// operator names nearly always); anything else goes through nlohmann.
void string(std::string& out, std::string_view text) {
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
  });
  if (!plain) {
    out += nlohmann::ordered_json(std::string(text)).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    return;
  }
  out += '"';
  out.append(text.data(), text.size());
  out += '"';
}

}  // namespace json_text

void JsonObjectStream::key(const std::string& key) {
  out_ << (anyMember_ ? ",\n  " : "{\n  ") << nlohmann::ordered_json(key).dump() << ": ";
  anyMember_ = true;
}

void JsonObjectStream::writeIndented(const nlohmann::ordered_json& value, int indent) {
  const std::string text = value.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  std::size_t from = 0;
  for (std::size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
    out_.write(text.data() + from, static_cast<std::streamsize>(nl + 1 - from));
    out_ << pad;
    from = nl + 1;
  }
  out_.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
}

void JsonObjectStream::member(const std::string& name, const nlohmann::ordered_json& value) {
  key(name);
  writeIndented(value, 2);
}

void JsonObjectStream::beginArray(const std::string& name) {
  key(name);
  out_ << '[';
  anyElement_ = false;
}

void JsonObjectStream::element(const nlohmann::ordered_json& value) {
  out_ << (anyElement_ ? ",\n    " : "\n    ");
  anyElement_ = true;
  writeIndented(value, 4);
}

void JsonObjectStream::rawElement(std::string_view text) {
  out_ << (anyElement_ ? ",\n    " : "\n    ");
  anyElement_ = true;
  out_.write(text.data(), static_cast<std::streamsize>(text.size()));
}

void JsonObjectStream::endArray() { out_ << (anyElement_ ? "\n  ]" : "]"); }

void JsonObjectStream::finish() { out_ << (anyMember_ ? "\n}\n" : "{}\n"); }

namespace {

// A cell in the CLI's text style (PyTorch's table units, as the other commands print).
std::string textCell(const report::Column& column, const report::Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return "-";
  if (const auto* s = std::get_if<std::string>(&cell)) return column.abbreviate ? report::kernelLabel(*s, 70) : *s;
  if (const auto* i = std::get_if<std::int64_t>(&cell))
    return column.kind == report::ColumnKind::Duration ? format::formatDuration(*i, kTableTime) : std::to_string(*i);
  const double v = std::get<double>(cell);
  return column.kind == report::ColumnKind::Percent ? format::formatPercent(v, kTablePercent) : format::formatNumber(v, 2);
}

}  // namespace

TextTable textTableOf(const report::Table& t, std::size_t rows) {
  TextTable table;
  for (const report::Column& c : t.columns) {
    const bool text = c.kind == report::ColumnKind::Text;
    table.addColumn(c.header, text ? TextTable::Align::Left : TextTable::Align::Right, text ? 70 : 0);
  }
  for (std::size_t r = 0; r < t.rows.size() && r < rows; ++r) {
    std::vector<std::string> cells;
    for (std::size_t i = 0; i < t.columns.size(); ++i)
      cells.push_back(i < t.rows[r].size() ? textCell(t.columns[i], t.rows[r][i]) : "-");
    table.addRow(std::move(cells));
  }
  return table;
}

}  // namespace gapscope::cli
