// Reading a rank set named on the command line, and the JSON rows that
// `ranks` and `diff` of two sets share.
#include "rank_set_output.h"

#include <ostream>

namespace gapscope::cli {

using nlohmann::ordered_json;
using ranks::RankRow;
using ranks::StepRow;

ranks::RankSetOptions rankSetOptions(const Args& args) {
  ranks::RankSetOptions options;
  if (args.has("memory-budget")) options.memoryBudget = ranks::parseMemoryBudget(args.get("memory-budget"));
  options.threads = static_cast<int>(args.getInt("threads", 0));
  return options;
}

std::optional<ranks::RankSet> readRankSet(const std::vector<std::string>& arguments,
                                          const ranks::RankSetOptions& options, const std::string& prefix,
                                          std::ostream& err) {
  std::vector<std::string> files;
  try {
    files = ranks::rankFiles(arguments);
  } catch (const std::exception& e) {
    err << prefix << e.what() << '\n';
    return std::nullopt;
  }
  ranks::RankSet set = ranks::loadRankSet(files, options);
  for (const auto& w : set.warnings) err << prefix << "warning: " << w << '\n';
  for (const auto& e : set.errors) err << prefix << e.message << '\n';
  if (set.tables.empty()) {
    err << prefix << "no rank could be read\n";
    return std::nullopt;
  }
  return set;
}

ordered_json idleJson(const analysis::IdleByCause& idle) {
  ordered_json j;
  for (std::size_t c = 0; c < analysis::kGapCauseCount; ++c) {
    j[analysis::gapCauseName(static_cast<analysis::GapCause>(c))] = idle.ns[c];
  }
  return j;
}

ordered_json rankRowJson(const RankRow& r) {
  return ordered_json{{"rank", r.rank},
                      {"file", r.file},
                      {"steps", r.steps},
                      {"counted_steps", r.countedSteps},
                      {"step_time_ns", r.stepTimeNs},
                      {"own_time_ns", r.ownTimeNs},
                      {"gpu_busy_pct", r.gpuBusyPct},
                      {"busy_ns", r.busyNs},
                      {"active_ns", r.activeNs},
                      {"collective_ns", r.collectiveNs},
                      {"collective_wait_ns", r.waitNs},
                      {"collective_transfer_ns", r.transferNs},
                      {"collectives", r.collectives},
                      {"idle_by_cause_ns", idleJson(r.idle)},
                      {"straggling_steps", r.stragglingSteps},
                      {"excess_ns", r.excessNs},
                      {"typical_excess_ns", r.typicalExcessNs},
                      {"typical_median_ns", r.typicalMedianNs},
                      {"consistently_slow", r.consistentlySlow}};
}

ordered_json rankStepJson(const StepRow& s) {
  return ordered_json{{"step", s.step},
                      {"ranks", s.ranks},
                      {"slowest_rank", s.slowestRank},
                      {"slowest_ns", s.slowestNs},
                      {"median_ns", s.medianNs},
                      {"step_time_median_ns", s.stepTimeMedianNs},
                      {"max_wait_ns", s.maxWaitNs},
                      {"excess_ns", s.excessNs},
                      {"straggling", s.straggling},
                      {"warm_up", s.warmUp}};
}

}  // namespace gapscope::cli
