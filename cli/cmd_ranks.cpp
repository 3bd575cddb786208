// gapscope-cli ranks DIR|FILES...: the ranks of a distributed run side by
// side, the slowest rank of each step, the stragglers and a verdict
// (core/ranks, docs/ranks.md). The JSON is the same document the Dask path
// (python/gapscope_dask) prints.
#include <algorithm>
#include <iostream>
#include <ostream>

#include "command.h"
#include "gapscope/ranks/rank_set.h"
#include "gapscope/ranks/ranks_json.h"
#include "gapscope/ranks/stragglers.h"
#include "output.h"
#include "rank_set_output.h"

namespace gapscope::cli {
namespace {

using ranks::RankRow;
using ranks::RanksAnalysis;
using ranks::StepRow;

std::string time(TimeNs ns) { return format::formatDuration(ns, kTableTime); }

// Straggling steps, starred when the rank is also slower in a typical step.
std::string stragglingCell(const RankRow& r) { return std::to_string(r.stragglingSteps) + (r.consistentlySlow ? "*" : ""); }

void printRankTable(std::ostream& out, const RanksAnalysis& a) {
  TextTable table;
  for (const char* h : {"Rank", "Steps", "Step time", "Own time", "GPU busy", "Collectives", "Wait", "Transfer",
                        "Idle: launch", "Idle: sync", "Straggling"}) {
    table.addColumn(h);
  }
  table.addColumn("File", TextTable::Align::Left, 48);
  for (const auto& r : a.ranks) {
    table.addRow({std::to_string(r.rank), std::to_string(r.steps), time(r.stepTimeNs), time(r.ownTimeNs),
                  format::formatPercent(r.gpuBusyPct, kTablePercent), time(r.collectiveNs), time(r.waitNs),
                  time(r.transferNs), time(r.idle[analysis::GapCause::LaunchOverhead]),
                  time(r.idle[analysis::GapCause::Synchronization]), stragglingCell(r), r.file});
  }
  table.print(out);
  const bool warmUp = std::any_of(a.steps.begin(), a.steps.end(), [](const StepRow& s) { return s.warmUp; });
  out << (warmUp ? "Step time and own time: medians over the rank's steps after the warm-up; collectives, wait, "
                   "transfer and idle: totals over those steps.\n"
                 : "Step time and own time: medians over the rank's steps; collectives, wait, transfer and idle: totals.\n");
  if (std::any_of(a.ranks.begin(), a.ranks.end(), [](const RankRow& r) { return r.consistentlySlow; })) {
    out << "*: consistently slower, its own time in a typical step over the step's median by 10%.\n";
  }
}

void printStepTable(std::ostream& out, const RanksAnalysis& a) {
  TextTable table;
  for (const char* h : {"Step", "Ranks", "Slowest rank", "Its own time", "Median own time", "Step time", "Max wait", "Straggling"}) {
    table.addColumn(h);
  }
  for (const auto& s : a.steps) {
    table.addRow({std::to_string(s.step), std::to_string(s.ranks), std::to_string(s.slowestRank), time(s.slowestNs),
                  time(s.medianNs), time(s.stepTimeMedianNs), time(s.maxWaitNs),
                  s.warmUp ? "warm-up" : s.straggling ? "yes" : ""});
  }
  table.print(out);
}

void printText(std::ostream& out, const RanksAnalysis& a, const ranks::RankSet& set) {
  out << "Verdict: " << a.verdict << "\n\n";
  printRankTable(out, a);
  out << '\n';
  printStepTable(out, a);
  for (const auto& n : a.notes) out << "Note: " << n << '\n';
  for (const auto& w : set.warnings) out << "Warning: " << w << '\n';
  for (const auto& e : set.errors) out << "Not read: " << ranks::describe(e) << '\n';
}

void printCsv(std::ostream& out, const RanksAnalysis& a) {
  writeCsvRow(out, {"rank", "file", "steps", "step_time_ns", "own_time_ns", "gpu_busy_pct", "busy_ns", "active_ns",
                    "collective_ns", "collective_wait_ns", "collective_transfer_ns", "collectives",
                    "idle_launch_overhead_ns", "idle_synchronization_ns", "idle_queued_ns", "idle_other_ns",
                    "straggling_steps", "excess_ns", "consistently_slow", "typical_excess_ns"});
  for (const auto& r : a.ranks) {
    writeCsvRow(out, {std::to_string(r.rank), format::csvText(r.file), std::to_string(r.steps),
                      std::to_string(r.stepTimeNs), std::to_string(r.ownTimeNs), std::to_string(r.gpuBusyPct),
                      std::to_string(r.busyNs), std::to_string(r.activeNs), std::to_string(r.collectiveNs),
                      std::to_string(r.waitNs), std::to_string(r.transferNs), std::to_string(r.collectives),
                      std::to_string(r.idle.ns[0]), std::to_string(r.idle.ns[1]), std::to_string(r.idle.ns[2]),
                      std::to_string(r.idle.ns[3]), std::to_string(r.stragglingSteps), std::to_string(r.excessNs),
                      r.consistentlySlow ? "1" : "0", std::to_string(r.typicalExcessNs)});
  }
}

int runRanks(const Args& args, std::ostream& out, std::ostream& err) {
  const OutputFormat format = formatOption(args);
  if (args.positional().empty()) {
    err << "gapscope-cli ranks: expected a directory or rank trace files (see gapscope-cli ranks --help)\n";
    return 2;
  }
  const ranks::RankSetOptions options = rankSetOptions(args);
  std::optional<ranks::RankSet> read = readRankSet(args.positional(), options, "gapscope-cli ranks: ", err);
  if (!read) return 1;
  ranks::RankSet& set = *read;
  const RanksAnalysis analysis = ranks::analyzeRanks(std::move(set.tables));
  switch (format) {
    case OutputFormat::Text: printText(out, analysis, set); break;
    case OutputFormat::Json: writeJson(out, ranks::ranksDocumentJson(analysis, set.warnings, set.errors)); break;
    case OutputFormat::Csv: printCsv(out, analysis); break;
  }
  return 0;
}

}  // namespace

GAPSCOPE_CLI_COMMAND("ranks", "ranks DIR|TRACE... [--format text|json|csv] [--memory-budget SIZE] [--threads N]",
                     "the ranks of a distributed run: per rank and step, the slowest rank, the stragglers and why "
                     "(SIZE: 8G, 512M or 25% of memory)",
                     {}, runRanks);

}  // namespace gapscope::cli
