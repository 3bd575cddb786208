// Seeing where an import issue is: the event of its first occurrence read
// again from the source (plain and gzipped files; none for text in memory),
// the slice read from it, and every slice an issue marks, counted against
// the reader's own count of the issue on every real trace.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "../support/gzip_text.h"
#include "gapscope/io/chrome_reader.h"
#include "gapscope/model/issue_sources.h"

namespace gapscope {
namespace {

namespace fs = std::filesystem;

class ScratchFile {
 public:
  ScratchFile(const std::string& name, const std::string& bytes)
      : path_(fs::temp_directory_path() / ("gapscope-issue-sources-" + std::to_string(::getpid()) + "-" + name)) {
    std::ofstream(path_, std::ios::binary) << bytes;
  }
  ~ScratchFile() { fs::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

// Three events with issues; the second has args, so its slice is found.
const std::string kUnmatchedEnd = R"({"ph":"E","pid":1,"tid":1,"ts":9})";
const std::string kSpilled = R"({"ph":"X","name":"b","pid":1,"tid":1,"ts":3,"dur":5,"args":{"note":"a } in a string","n":[1,{"k":2}]}})";
const std::string kNegative = R"({"ph":"X","name":"c","pid":1,"tid":1,"ts":20,"dur":-5})";
const std::string kText = "{\"traceEvents\":[\n" R"({"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":5,"args":{"x":1}})" ",\n" +
                          kUnmatchedEnd + ",\n" + kSpilled + ",\n" + kNegative + "\n]}\n";

const ImportIssue& issueNamed(const Trace& t, const std::string& name) {
  const ImportIssue* i = t.issues.find(name);
  if (!i) throw std::runtime_error("no issue " + name);
  return *i;
}

void expectEventsFound(const Trace& t) {
  EXPECT_EQ(sourceEventAt(t, issueNamed(t, "unmatched_end").firstOffset).text, kUnmatchedEnd);
  EXPECT_EQ(sourceEventAt(t, issueNamed(t, "negative_duration").firstOffset).text, kNegative);
  const SourceEvent spilled = sourceEventAt(t, issueNamed(t, "overlap_spilled").firstOffset);
  EXPECT_EQ(spilled.text, kSpilled);
  EXPECT_FALSE(spilled.cut);
  ASSERT_NE(spilled.slice, kNoIndex);
  EXPECT_EQ(t.str(t.slices[spilled.slice].name), "b");
  EXPECT_EQ(sourceEventAt(t, issueNamed(t, "unmatched_end").firstOffset).slice, kNoIndex);  // made no slice
  EXPECT_EQ(slicesOfIssue(t, "overlap_spilled"), std::vector<std::uint32_t>{spilled.slice});
}

TEST(IssueSources, TheFirstOccurrenceIsReadAgainFromAPlainFile) {
  ScratchFile file("plain.json", kText);
  io::LoadResult r = io::loadChromeTrace(file.path());
  ASSERT_TRUE(r.trace) << r.error;
  expectEventsFound(*r.trace);
}

TEST(IssueSources, TheFirstOccurrenceIsReadAgainFromAGzippedFile) {
  ScratchFile file("gzipped.json.gz", testing::gzipText(kText));
  io::LoadResult r = io::loadChromeTrace(file.path());
  ASSERT_TRUE(r.trace) << r.error;
  expectEventsFound(*r.trace);
}

TEST(IssueSources, TextInMemoryIsNotKeptSoNothingIsShown) {
  io::LoadResult r = io::parseChromeTrace(kText);
  ASSERT_TRUE(r.trace);
  const SourceEvent e = sourceEventAt(*r.trace, issueNamed(*r.trace, "overlap_spilled").firstOffset);
  EXPECT_FALSE(e.sourceKept);
  EXPECT_EQ(e.text, "");
  EXPECT_EQ(e.slice, kNoIndex);  // args offsets there are places in the arena
  EXPECT_EQ(slicesOfIssue(*r.trace, "overlap_spilled").size(), 1u);  // marks need no source
}

TEST(IssueSources, ALongEventIsCutAndAnOffsetInsideAnotherValueGivesThatValue) {
  const std::string big = R"({"ph":"E","pid":1,"tid":1,"ts":9,"args":{"s":")" + std::string(40000, 'x') + "\"}}";
  ScratchFile file("long.json", "{\"traceEvents\":[\n" + big + "\n]}\n");
  io::LoadResult r = io::loadChromeTrace(file.path());
  ASSERT_TRUE(r.trace) << r.error;
  const SourceEvent e = sourceEventAt(*r.trace, issueNamed(*r.trace, "unmatched_end").firstOffset);
  EXPECT_TRUE(e.cut);
  EXPECT_EQ(e.text.size(), kSourceEventMaxBytes);
  EXPECT_TRUE(e.text == big.substr(0, kSourceEventMaxBytes));  // (not printed: 16 KiB)
  // The top-level object does not close within the longest text shown: cut.
  EXPECT_TRUE(sourceEventAt(*r.trace, 0).cut);
  EXPECT_EQ(sourceEventAt(*r.trace, 0).text.size(), kSourceEventMaxBytes);
  EXPECT_EQ(sourceEventAt(*r.trace, 1).text, "\"traceEvents\"");  // a string begins there: the string
  const SourceEvent past = sourceEventAt(*r.trace, 1u << 30);  // past the end: the file is kept, nothing is there
  EXPECT_TRUE(past.sourceKept);
  EXPECT_EQ(past.text, "");
}

// An issue that points at a value that is no event (here a number where an
// event should be, on one line with the next event: minified JSON) shows
// that value alone, and leads to no slice: not to the event after it.
TEST(IssueSources, AValueThatIsNoEventLeadsToNoSlice) {
  const std::string text =
      R"({"traceEvents":[42,{"ph":"X","name":"other","pid":1,"tid":1,"ts":1,"dur":2,"args":{"a":1}}]})";
  ScratchFile file("minified.json", text);
  io::LoadResult r = io::loadChromeTrace(file.path());
  ASSERT_TRUE(r.trace) << r.error;
  ASSERT_FALSE(r.trace->issues.empty());
  const ImportIssue& issue = r.trace->issues.all().front();
  const SourceEvent e = sourceEventAt(*r.trace, issue.firstOffset);
  EXPECT_EQ(e.text, "42") << issue.name;
  EXPECT_EQ(e.slice, kNoIndex);
}

// The file ends inside an event: the "truncated" issue points at the end,
// where nothing is, and the source is still the file.
TEST(IssueSources, ACutFileIsStillReadAgain) {
  const std::string text = "{\"traceEvents\":[\n" + kSpilled + ",\n{\"ph\":\"X\",\"na";
  for (const bool gzipped : {false, true}) {
    ScratchFile file(gzipped ? "cut.json.gz" : "cut.json", gzipped ? testing::gzipText(text) : text);
    io::LoadResult r = io::loadChromeTrace(file.path());
    ASSERT_TRUE(r.trace) << r.error;
    const ImportIssue* cut = r.trace->issues.find("truncated");
    ASSERT_NE(cut, nullptr);
    const SourceEvent e = sourceEventAt(*r.trace, cut->firstOffset);
    EXPECT_TRUE(e.sourceKept) << gzipped;
    EXPECT_EQ(e.slice, kNoIndex);
    EXPECT_EQ(text.substr(std::min<std::size_t>(cut->firstOffset, text.size())).rfind(e.text, 0), 0u) << e.text;
  }
}

bool isTrace(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.find(".oracle.") == std::string::npos && (name.ends_with(".json") || name.ends_with(".json.gz"));
}

bool marksSlices(const std::string& issue) {
  return issue == "overlap_spilled" || issue == "python_frame_overlap" || issue == "sync_record_overlap" ||
         issue == "unclosed_begin" || issue == "unclosed_async";
}

// On every real trace: each issue's first occurrence reads back as one JSON
// value, and an issue that marks slices marks as many as the reader counted,
// the first occurrence's slice among them.
TEST(IssueSources, EveryIssueOfEveryRealTraceLeadsToItsEvent) {
  int traces = 0, marked = 0;
  for (const auto& e : fs::recursive_directory_iterator(GAPSCOPE_TEST_DATA_DIR)) {
    if (!isTrace(e.path())) continue;
    io::LoadResult r = io::loadChromeTrace(e.path().string());
    ASSERT_TRUE(r.trace) << e.path() << ": " << r.error;
    const Trace& t = *r.trace;
    ++traces;
    for (const ImportIssue& issue : t.issues.all()) {
      SCOPED_TRACE(e.path().string() + " " + issue.name);
      const SourceEvent first = sourceEventAt(t, issue.firstOffset);
      ASSERT_TRUE(first.sourceKept);
      if (issue.name != "truncated") {
        ASSERT_FALSE(first.text.empty());
      }
      if (first.text.front() == '{' && !first.cut) {
        EXPECT_TRUE(nlohmann::json::accept(first.text)) << first.text.substr(0, 200);
      }
      if (!marksSlices(issue.name)) continue;
      const std::vector<std::uint32_t> slices = slicesOfIssue(t, issue.name);
      EXPECT_EQ(slices.size(), issue.count);
      if (first.slice != kNoIndex) {
        EXPECT_NE(std::find(slices.begin(), slices.end(), first.slice), slices.end());
      }
      ++marked;
    }
  }
  EXPECT_GE(traces, 14);
  EXPECT_GE(marked, 3);
}

}  // namespace
}  // namespace gapscope
