// Two rank sets compared, in text, JSON or CSV (docs/ranks.md, "Two runs
// compared").
#include "diff_rank_sets.h"

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <sstream>

#include "gapscope/format/escape.h"
#include "gapscope/ranks/ranks_document.h"
#include "gapscope/ranks/ranks_json.h"
#include "gapscope/ranks/set_compare.h"
#include "gapscope/report/comparison_report.h"
#include "gapscope/report/json_parts.h"
#include "output.h"
#include "rank_set_output.h"

namespace gapscope::cli {
namespace {

using nlohmann::ordered_json;
using report::idleJson;
using ranks::rankRowJson;
using ranks::rankStepJson;
using ranks::RankChange;
using ranks::RankSetComparison;
using ranks::SetFigures;
using ranks::StepChange;

// Rows of the rank and step tables in text unless --limit says otherwise.
constexpr std::size_t kTextRows = 20;

std::string time(TimeNs ns) { return format::formatDuration(ns, kTableTime); }
std::string pct(double v) { return format::formatPercent(v, kTablePercent); }

ordered_json runJson(const std::string& path, const SetFigures& f) {
  return ordered_json{{"path", path},
                      {"ranks", f.ranks},
                      {"steps", f.steps},
                      {"rank_steps", f.rankSteps},
                      {"step_mark", f.stepMark},
                      {"step_time_ns", f.stepTimeNs},
                      {"gpu_busy_pct", f.gpuBusyPct},
                      {"collective_per_step_ns", f.collectivePerStepNs},
                      {"wait_per_step_ns", f.waitPerStepNs},
                      {"idle_per_step_ns", idleJson(f.idlePerStep)},
                      {"straggling_steps", f.stragglingSteps},
                      {"stragglers", f.stragglers}};
}

template <typename Row, typename ToJson>
ordered_json sideJson(const std::optional<Row>& row, ToJson toJson) {
  return row ? toJson(*row) : ordered_json(nullptr);
}

void printJson(std::ostream& out, const RankSetComparison& c, const std::string& pathA, const std::string& pathB,
               const std::vector<std::string>& warnings) {
  ordered_json j;
  j["runs"] = ordered_json::array({runJson(pathA, c.runs[0]), runJson(pathB, c.runs[1])});
  j["speedup"] = c.speedup;
  j["step_time_test"] = report::stepSpreadJson(c.stepSpread);
  if (!c.recordings[0].empty()) {
    j["run_to_run_test"] = report::stepSpreadJson(c.runToRun);
    j["recordings"] = report::recordingsJson(c.recordings);
  }
  j["verdict"] = c.verdict;
  j["ranks"] = ordered_json::array();
  for (const RankChange& r : c.ranks)
    j["ranks"].push_back(ordered_json{{"rank", r.rank}, {"a", sideJson(r.a, rankRowJson)}, {"b", sideJson(r.b, rankRowJson)}});
  j["steps"] = ordered_json::array();
  for (const StepChange& s : c.steps)
    j["steps"].push_back(ordered_json{{"step", s.step}, {"a", sideJson(s.a, rankStepJson)}, {"b", sideJson(s.b, rankStepJson)}});
  j["notes"] = c.notes;
  j["warnings"] = warnings;
  writeJson(out, j);
}

// A figure of each run; `absent` where the run has no such row ("-" in
// the text tables, empty in CSV).
template <typename Row, typename Cell>
std::string cellOf(const std::optional<Row>& row, Cell cell, const char* absent = "-") {
  return row ? cell(*row) : absent;
}

std::string stragglersCell(const std::vector<std::int64_t>& ranks) {
  std::string s;
  for (std::size_t i = 0; i < ranks.size() && i < 8; ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
  return s.empty() ? "none" : ranks.size() > 8 ? s + ", ..." : s;
}

TextTable jobTable(const RankSetComparison& c) {
  const SetFigures& a = c.runs[0];
  const SetFigures& b = c.runs[1];
  TextTable t;
  t.addColumn("The job", TextTable::Align::Left);
  t.addColumn("A");
  t.addColumn("B");
  t.addRow({"Step time (median)", time(a.stepTimeNs), time(b.stepTimeNs)});
  t.addRow({"GPU busy", pct(a.gpuBusyPct), pct(b.gpuBusyPct)});
  t.addRow({"Collectives a rank and step", time(a.collectivePerStepNs), time(b.collectivePerStepNs)});
  t.addRow({"  of which waiting", time(a.waitPerStepNs), time(b.waitPerStepNs)});
  t.addRow({"Idle: launch a rank and step", time(a.idlePerStep[analysis::GapCause::LaunchOverhead]),
            time(b.idlePerStep[analysis::GapCause::LaunchOverhead])});
  t.addRow({"Idle: sync a rank and step", time(a.idlePerStep[analysis::GapCause::Synchronization]),
            time(b.idlePerStep[analysis::GapCause::Synchronization])});
  t.addRow({"Straggling steps", std::to_string(a.stragglingSteps), std::to_string(b.stragglingSteps)});
  t.addRow({"Stragglers", stragglersCell(a.stragglers), stragglersCell(b.stragglers)});
  return t;
}

constexpr const char* kJobTableNote =
    "Step time: the median rank's step time, its lower median over the steps after the warm-up.\n"
    "A rank and step: the ranks' totals over their steps after the warm-up, per step.\n";

TextTable rankTable(const RankSetComparison& c, std::size_t rows) {
  TextTable t;
  for (const char* h : {"Rank", "Step time A", "Step time B", "Own time A", "Own time B", "GPU busy A",
                        "GPU busy B", "Wait/step A", "Wait/step B", "Straggling A", "Straggling B"})
    t.addColumn(h);
  using ranks::RankRow;
  const auto stepTime = [](const RankRow& r) { return time(r.stepTimeNs); };
  const auto ownTime = [](const RankRow& r) { return time(r.ownTimeNs); };
  const auto busy = [](const RankRow& r) { return pct(r.gpuBusyPct); };
  const auto wait = [](const RankRow& r) { return time(ranks::perCountedStep(r.waitNs, r)); };
  const auto straggling = [](const RankRow& r) {
    return std::to_string(r.stragglingSteps) + (r.consistentlySlow ? "*" : "");
  };
  for (std::size_t i = 0; i < c.ranks.size() && i < rows; ++i) {
    const RankChange& r = c.ranks[i];
    t.addRow({std::to_string(r.rank), cellOf(r.a, stepTime), cellOf(r.b, stepTime), cellOf(r.a, ownTime),
              cellOf(r.b, ownTime), cellOf(r.a, busy), cellOf(r.b, busy), cellOf(r.a, wait), cellOf(r.b, wait),
              cellOf(r.a, straggling), cellOf(r.b, straggling)});
  }
  return t;
}

// The lines under the rank table: rows left out, the star explained.
std::string rankTableNote(const RankSetComparison& c, std::size_t rows) {
  std::string note;
  if (c.ranks.size() > rows)
    note += "(" + std::to_string(rows) + " of " + std::to_string(c.ranks.size()) + " ranks; --limit N shows more)\n";
  const auto slow = [](const std::optional<ranks::RankRow>& r) { return r && r->consistentlySlow; };
  if (std::any_of(c.ranks.begin(), c.ranks.end(), [&](const RankChange& r) { return slow(r.a) || slow(r.b); }))
    note += "*: consistently slower, its own time in a typical step over the step's median by 10%.\n";
  return note;
}

TextTable stepTable(const RankSetComparison& c, std::size_t rows) {
  TextTable t;
  for (const char* h : {"Step", "Step time A", "Step time B", "Slowest A", "Slowest B", "Its own time A", "Its own time B",
                        "Straggling A", "Straggling B"})
    t.addColumn(h);
  using ranks::StepRow;
  const auto stepTime = [](const StepRow& s) { return time(s.stepTimeMedianNs); };
  const auto slowest = [](const StepRow& s) { return std::to_string(s.slowestRank); };
  const auto own = [](const StepRow& s) { return time(s.slowestNs); };
  const auto straggling = [](const StepRow& s) { return std::string(s.warmUp ? "warm-up" : s.straggling ? "yes" : ""); };
  for (std::size_t i = 0; i < c.steps.size() && i < rows; ++i) {
    const StepChange& s = c.steps[i];
    t.addRow({std::to_string(s.step), cellOf(s.a, stepTime), cellOf(s.b, stepTime), cellOf(s.a, slowest),
              cellOf(s.b, slowest), cellOf(s.a, own), cellOf(s.b, own), cellOf(s.a, straggling),
              cellOf(s.b, straggling)});
  }
  return t;
}

std::string stepTableNote(const RankSetComparison& c, std::size_t rows) {
  if (c.steps.size() <= rows) return {};
  return "(" + std::to_string(rows) + " of " + std::to_string(c.steps.size()) + " steps; --limit N shows more)\n";
}

std::string runLine(const std::string& path, const SetFigures& f, const std::vector<compare::Recording>& recordings) {
  return path + " (" + std::to_string(f.ranks) + (f.ranks == 1 ? " rank, " : " ranks, ") + std::to_string(f.steps) +
         (f.steps == 1 ? " step" : " steps") + " compared; a step: " + f.stepMark + ")" +
         compare::middleOfRecordings(recordings);
}

// Several recordings a side: the trace comparison's table of them.
report::Table recordingsOf(const RankSetComparison& c) { return report::recordingsTable(c.recordings, c.runToRun); }

void printText(std::ostream& out, const RankSetComparison& c, const std::string& pathA, const std::string& pathB,
               std::size_t rows, const std::vector<std::string>& warnings) {
  out << "A: " << runLine(pathA, c.runs[0], c.recordings[0]) << '\n'
      << "B: " << runLine(pathB, c.runs[1], c.recordings[1]) << '\n';
  out << "Verdict: " << c.verdict << "\n\n";
  if (!c.recordings[0].empty()) {
    const report::Table t = recordingsOf(c);
    textTableOf(t, t.rows.size()).print(out);
    out << '\n';
  }
  jobTable(c).print(out);
  out << kJobTableNote << '\n';
  rankTable(c, rows).print(out);
  out << rankTableNote(c, rows) << '\n';
  stepTable(c, rows).print(out);
  out << stepTableNote(c, rows);
  for (const auto& n : c.notes) out << "Note: " << n << '\n';
  for (const auto& w : warnings) out << "Warning: " << w << '\n';
}

// The same in GitHub Markdown, for a pull request or an issue: every text
// that came from the runs (paths, step marks, kernel names) escaped.
void printMarkdown(std::ostream& out, const RankSetComparison& c, const std::string& pathA, const std::string& pathB,
                   std::size_t rows, const std::vector<std::string>& warnings) {
  using format::escapeMarkdown;
  // Lines of a note as one paragraph, each ending in a hard line break.
  const auto paragraph = [&](const std::string& lines) {
    std::istringstream in(lines);
    for (std::string line; std::getline(in, line);) out << escapeMarkdown(line) << "  \n";
  };
  out << "# Two runs of a distributed job compared\n\n";
  out << "- **A**: " << escapeMarkdown(runLine(pathA, c.runs[0], c.recordings[0])) << '\n';
  out << "- **B**: " << escapeMarkdown(runLine(pathB, c.runs[1], c.recordings[1])) << "\n\n";
  out << "**Verdict**: " << escapeMarkdown(c.verdict) << "\n\n";
  if (!c.recordings[0].empty()) {
    out << "## Recordings\n\n";
    const report::Table t = recordingsOf(c);
    textTableOf(t, t.rows.size()).printMarkdown(out);
    out << '\n';
  }
  out << "## The job\n\n";
  jobTable(c).printMarkdown(out);
  out << '\n';
  paragraph(kJobTableNote);
  out << "\n## Ranks\n\n";
  rankTable(c, rows).printMarkdown(out);
  out << '\n';
  paragraph(rankTableNote(c, rows));
  out << "\n## Steps\n\n";
  stepTable(c, rows).printMarkdown(out);
  out << '\n';
  paragraph(stepTableNote(c, rows));
  if (c.notes.empty() && warnings.empty()) return;
  out << "\n## Notes\n\n";
  for (const auto& n : c.notes) out << "- " << escapeMarkdown(n) << '\n';
  for (const auto& w : warnings) out << "- Warning: " << escapeMarkdown(w) << '\n';
}

// The step table, a row per step number and run figure side by side.
void printStepCsv(std::ostream& out, const RankSetComparison& c) {
  writeCsvRow(out, {"step", "in_a", "in_b", "step_time_a_ns", "step_time_b_ns", "slowest_rank_a", "slowest_rank_b",
                    "slowest_a_ns", "slowest_b_ns", "median_a_ns", "median_b_ns", "straggling_a", "straggling_b",
                    "warm_up_a", "warm_up_b"});
  using ranks::StepRow;
  const auto num = [](auto v) { return [v](const StepRow& s) { return std::to_string(v(s)); }; };
  const auto blank = [](const std::optional<StepRow>& row, auto cell) { return cellOf(row, cell, ""); };
  const auto stepTime = num([](const StepRow& s) { return s.stepTimeMedianNs; });
  const auto slowest = num([](const StepRow& s) { return s.slowestRank; });
  const auto slowestNs = num([](const StepRow& s) { return s.slowestNs; });
  const auto median = num([](const StepRow& s) { return s.medianNs; });
  const auto straggling = num([](const StepRow& s) { return int{s.straggling}; });
  const auto warmUp = num([](const StepRow& s) { return int{s.warmUp}; });
  for (const StepChange& s : c.steps) {
    writeCsvRow(out, {std::to_string(s.step), s.a ? "1" : "0", s.b ? "1" : "0", blank(s.a, stepTime),
                      blank(s.b, stepTime), blank(s.a, slowest), blank(s.b, slowest), blank(s.a, slowestNs),
                      blank(s.b, slowestNs), blank(s.a, median), blank(s.b, median), blank(s.a, straggling),
                      blank(s.b, straggling), blank(s.a, warmUp), blank(s.b, warmUp)});
  }
}

// The rank table, a row per rank and run figure side by side.
void printRankCsv(std::ostream& out, const RankSetComparison& c) {
  writeCsvRow(out, {"rank", "in_a", "in_b", "step_time_a_ns", "step_time_b_ns", "own_time_a_ns", "own_time_b_ns",
                    "gpu_busy_a_pct", "gpu_busy_b_pct", "wait_per_step_a_ns", "wait_per_step_b_ns",
                    "straggling_steps_a", "straggling_steps_b"});
  using ranks::RankRow;
  const auto num = [](auto v) { return [v](const RankRow& r) { return std::to_string(v(r)); }; };
  const auto blank = [](const std::optional<RankRow>& row, auto cell) { return cellOf(row, cell, ""); };
  const auto stepTime = num([](const RankRow& r) { return r.stepTimeNs; });
  const auto ownTime = num([](const RankRow& r) { return r.ownTimeNs; });
  const auto busy = num([](const RankRow& r) { return r.gpuBusyPct; });
  const auto wait = num([](const RankRow& r) { return ranks::perCountedStep(r.waitNs, r); });
  const auto straggling = num([](const RankRow& r) { return r.stragglingSteps; });
  for (const RankChange& r : c.ranks) {
    writeCsvRow(out, {std::to_string(r.rank), r.a ? "1" : "0", r.b ? "1" : "0", blank(r.a, stepTime),
                      blank(r.b, stepTime), blank(r.a, ownTime), blank(r.b, ownTime), blank(r.a, busy),
                      blank(r.b, busy), blank(r.a, wait), blank(r.b, wait), blank(r.a, straggling),
                      blank(r.b, straggling)});
  }
}

// One run as the comparison takes it: its analysis, and what the reader
// should know of how it was read ("A: ...").
struct RankRun {
  ranks::RanksAnalysis analysis;
  std::vector<std::string> warnings;
};

void addReadWarnings(RankRun& run, const std::string& side, const std::vector<std::string>& warnings,
                     const std::vector<ranks::RankLoadError>& errors) {
  for (const auto& w : warnings) run.warnings.push_back(side + ": " + w);
  for (const auto& e : errors) run.warnings.push_back(side + ": not read: " + ranks::describe(e));
}

// A directory of rank traces, read and analysed, or a ranks document
// (`ranks --format json`, the CLI's or the Dask path's), read back.
std::optional<RankRun> readRankRun(const RankRunPath& named, const ranks::RankSetOptions& options,
                                   const std::string& side, std::ostream& err) {
  const std::string prefix = "gapscope-cli diff: run " + side + ": ";
  RankRun run;
  if (named.kind == RunKind::RanksDocument) {
    try {
      ranks::RanksDocument document = ranks::readRanksDocument(named.path);
      run.analysis = std::move(document.analysis);
      addReadWarnings(run, side, document.warnings, document.errors);
    } catch (const std::exception& e) {
      err << prefix << e.what() << '\n';
      return std::nullopt;
    }
    return run;
  }
  std::optional<ranks::RankSet> set = readRankSet({named.path}, options, prefix, err);
  if (!set) return std::nullopt;
  addReadWarnings(run, side, set->warnings, set->errors);
  run.analysis = ranks::analyzeRanks(std::move(set->tables));
  return run;
}

}  // namespace

RunKind runKind(const std::string& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) return RunKind::RankDirectory;
  return ranks::looksLikeRanksDocument(path) ? RunKind::RanksDocument : RunKind::Trace;
}

int diffRankSets(const Args& args, const std::string& format, const std::array<std::vector<RankRunPath>, 2>& sides,
                 std::ostream& out, std::ostream& err) {
  if (format != "text" && format != "json" && format != "csv" && format != "md" && format != "markdown") {
    err << "gapscope-cli diff: two rank sets are compared in text, json, csv or md, not '" << format << "'\n";
    return 2;
  }
  const bool several = sides[0].size() > 1 || sides[1].size() > 1;
  const std::string table = args.get("table", "ranks");
  if (format == "csv" && table != "ranks" && table != "steps" && !(several && table == "recordings")) {
    err << "gapscope-cli diff: --table of two rank sets expects ranks, steps or (several recordings a side) "
           "recordings, got '" << table << "'\n";
    return 2;
  }
  const ranks::RankSetOptions options = rankSetOptions(args);
  // One run after the other: each reads its ranks on every core. A run's
  // tables stay, its traces do not.
  std::array<std::vector<RankRun>, 2> runs;
  std::vector<std::string> warnings;
  for (std::size_t side = 0; side < 2; ++side) {
    for (const RankRunPath& named : sides[side]) {
      const std::string name = std::string(side == 0 ? "A" : "B") + (several ? " (" + named.path + ")" : "");
      std::optional<RankRun> run = readRankRun(named, options, name, err);
      if (!run) return 1;
      warnings.insert(warnings.end(), run->warnings.begin(), run->warnings.end());
      runs[side].push_back(std::move(*run));
    }
  }
  std::array<std::vector<const ranks::RanksAnalysis*>, 2> analyses;
  std::array<std::vector<std::string>, 2> names;
  for (std::size_t side = 0; side < 2; ++side) {
    for (std::size_t i = 0; i < runs[side].size(); ++i) {
      analyses[side].push_back(&runs[side][i].analysis);
      names[side].push_back(sides[side][i].path);
    }
  }
  const RankSetComparison c = several ? ranks::compareRankSetRecordings(analyses, names)
                                      : ranks::compareRankSets(runs[0][0].analysis, runs[1][0].analysis);
  std::array<std::string, 2> shown{sides[0][0].path, sides[1][0].path};
  for (std::size_t side = 0; side < 2; ++side)
    for (const compare::Recording& r : c.recordings[side])
      if (r.typical) shown[side] = r.file;
  const std::size_t rows = args.has("limit") ? limitOption(args) : kTextRows;
  if (format == "json") printJson(out, c, shown[0], shown[1], warnings);
  else if (format == "csv" && table == "steps") printStepCsv(out, c);
  else if (format == "csv" && table == "recordings") out << report::tableCsv(recordingsOf(c));
  else if (format == "csv") printRankCsv(out, c);
  else if (format == "text") printText(out, c, shown[0], shown[1], rows, warnings);
  else printMarkdown(out, c, shown[0], shown[1], rows, warnings);
  return 0;
}

}  // namespace gapscope::cli
