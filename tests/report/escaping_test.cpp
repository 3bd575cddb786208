// Trace files are untrusted: names built to break each format must come out
// escaped (html, md), quoted (csv) or encoded (json), and never as markup.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "gapscope/report/report.h"
#include "report_of.h"
#include "html_check.h"
#include "loop_trace.h"
#include "report_files.h"

namespace gapscope::report {
namespace {

using namespace gapscope::testing;

const std::string kScriptKernel = "<script>alert(1)</script>";
const std::string kPipeOp = "aten::evil|pipe \"quoted\" `tick` new\nline & <b>bold</b> [x](http://e.vil)";
const std::string kFormulaOp = "=HYPERLINK(\"http://e.vil\",\"click\")";
const std::string kBadUtf8Op = "bad\xff\xfe" "bytes";
const std::string kDeviceName = "</title><script>x()</script>";
const std::string kSource = "/tmp/<img src=x onerror=alert(1)>.json";

Report hostileReport() {
  LoopTrace t;
  t.builder().metadata().devices[0].name = kDeviceName;
  t.sourcePath(kSource);
  t.beginStep();
  for (int i = 0; i < 10; ++i) t.op(kPipeOp, kScriptKernel, 2 * kUs);  // small and repeated: a finding
  t.op(kFormulaOp, kGemm, 50 * kUs);
  t.op(kBadUtf8Op, kTanh, 50 * kUs);
  t.endStep();
  return reportOf(t.finish());
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

TEST(Escaping, HtmlHasNoMarkupFromTheTrace) {
  std::string html = renderHtml(hostileReport());
  EXPECT_EQ(checkWellFormedHtml(html), "");
  std::string l = lower(html);
  EXPECT_EQ(l.find("<script"), std::string::npos);
  EXPECT_EQ(l.find("<img"), std::string::npos);
  EXPECT_EQ(l.find("<b>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("&lt;/title&gt;&lt;script&gt;x()&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("aten::evil|pipe &quot;quoted&quot; `tick` new line &amp; &lt;b&gt;bold&lt;/b&gt;"),
            std::string::npos);
  // One title element in the head, and it is ours (the SVG charts have their own).
  std::string head = l.substr(0, l.find("</head>"));
  EXPECT_EQ(head.find("<title>"), head.rfind("<title>"));
  EXPECT_NE(html.find("Content-Security-Policy"), std::string::npos);
}

TEST(Escaping, HtmlIsWellFormedXmlForAStrictParser) {
  if (std::system("command -v xmllint >/dev/null 2>&1") != 0) GTEST_SKIP() << "xmllint not installed";
  ScratchDir dir;
  writeFile(dir / "r.html", renderHtml(hostileReport()));
  std::string command = "xmllint --noout " + (dir / "r.html").string() + " 2>" + (dir / "err").string();
  EXPECT_EQ(std::system(command.c_str()), 0) << readFile(dir / "err");
}

// Pipes in a Markdown table row that are not backslash-escaped.
std::size_t cellSeparators(const std::string& line) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < line.size(); ++i)
    if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++n;
  return n;
}

TEST(Escaping, MarkdownTablesKeepTheirShape) {
  std::string md = renderMarkdown(hostileReport());
  bool inFence = false;
  std::size_t tableColumns = 0;
  std::istringstream lines(md);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("```", 0) == 0) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    for (std::size_t i = 0; i < line.size(); ++i) {
      char c = line[i];
      if (c == '<' || c == '`' || c == '[' || c == '&') {
        EXPECT_TRUE(i > 0 && line[i - 1] == '\\') << "unescaped '" << c << "' in: " << line;
      }
    }
    if (line.rfind("|", 0) != 0) {
      tableColumns = 0;
      continue;
    }
    if (tableColumns == 0) tableColumns = cellSeparators(line);
    EXPECT_EQ(cellSeparators(line), tableColumns) << line;
  }
  EXPECT_NE(md.find("aten::evil\\|pipe \"quoted\" \\`tick\\` new line \\& \\<b\\>bold\\</b\\>"), std::string::npos);
  EXPECT_NE(md.find("\\<script\\>alert(1)\\</script\\>"), std::string::npos);
}

// RFC 4180 records of one CSV document.
std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1, std::vector<std::string>(1));
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        rows.back().back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        rows.back().back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().emplace_back();
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
      rows.emplace_back(1);
    } else {
      rows.back().back() += c;
    }
  }
  if (rows.back().size() == 1 && rows.back()[0].empty()) rows.pop_back();
  return rows;
}

TEST(Escaping, CsvFieldsRoundTripAndFormulasAreDefused) {
  auto files = renderCsv(hostileReport());
  bool sawPipe = false, sawFormula = false, sawScript = false;
  for (const auto& [name, content] : files) {
    auto rows = parseCsv(content);
    ASSERT_FALSE(rows.empty()) << name;
    for (const auto& row : rows) {
      EXPECT_EQ(row.size(), rows[0].size()) << name;
      for (const auto& field : row) {
        sawPipe = sawPipe || field == kPipeOp;
        sawFormula = sawFormula || field == "'" + kFormulaOp;
        sawScript = sawScript || field == kScriptKernel;
        if (!field.empty()) {
          EXPECT_NE(field.front(), '=') << name << ": " << field;
        }
      }
    }
  }
  EXPECT_TRUE(sawPipe);
  EXPECT_TRUE(sawFormula);
  EXPECT_TRUE(sawScript);
}

TEST(Escaping, JsonKeepsNamesExactAndReplacesBadBytes) {
  auto j = nlohmann::json::parse(renderJson(hostileReport()));
  std::vector<std::string> ops, kernels;
  for (const auto& row : j["tables"]["top_ops_self_cpu"]["rows"]) ops.push_back(row["name"]);
  for (const auto& row : j["tables"]["top_kernels"]["rows"]) kernels.push_back(row["name"]);
  EXPECT_NE(std::find(ops.begin(), ops.end(), kPipeOp), ops.end());
  EXPECT_NE(std::find(ops.begin(), ops.end(), kFormulaOp), ops.end());
  EXPECT_NE(std::find(ops.begin(), ops.end(), "bad\xEF\xBF\xBD\xEF\xBF\xBD" "bytes"), ops.end());
  EXPECT_NE(std::find(kernels.begin(), kernels.end(), kScriptKernel), kernels.end());
  EXPECT_EQ(j["trace"]["devices"][0]["name"], kDeviceName);
  EXPECT_EQ(j["trace"]["source"], kSource);
}

}  // namespace
}  // namespace gapscope::report
