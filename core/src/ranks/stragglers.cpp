#include "gapscope/ranks/stragglers.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "gapscope/analysis/collectives.h"
#include "stragglers_detail.h"

namespace gapscope::ranks {
namespace {

using namespace detail;

using analysis::GapCause;
using analysis::kGapCauseCount;
using CollectiveKey = std::pair<std::int64_t, std::uint32_t>;  // (step, index)


std::map<CollectiveKey, TimeNs> latestStarts(const std::vector<RankTables>& ranks) {
  std::map<CollectiveKey, TimeNs> latest;
  for (const auto& r : ranks) {
    for (const auto& c : r.collectives) {
      auto [it, fresh] = latest.emplace(CollectiveKey{c.step, c.index}, c.startNs);
      if (!fresh) it->second = std::max(it->second, c.startNs);
    }
  }
  return latest;
}

// Per rank: wait in collectives by step.
using WaitByStep = std::map<std::int64_t, TimeNs>;
WaitByStep waitsOf(const RankTables& r, const std::map<CollectiveKey, TimeNs>& latest) {
  WaitByStep waits;
  for (const auto& c : r.collectives) waits[c.step] += collectiveWait(c.startNs, c.durNs, latest.at({c.step, c.index}));
  return waits;
}

TimeNs ownTime(const RankStep& s, const WaitByStep& waits) {
  auto it = waits.find(s.step);
  const TimeNs wait = it == waits.end() ? 0 : it->second;
  return std::max<TimeNs>(0, s.timeNs - wait);
}

RankRow rankRow(const RankTables& r, const WaitByStep& waits) {
  RankRow row;
  row.rank = r.rank;
  row.file = r.file;
  row.steps = r.steps.size();
  std::vector<TimeNs> times;
  std::vector<TimeNs> owns;
  const bool keepAll = onlyWarmUps(r);
  for (const auto& s : r.steps) {
    if (s.warmUp && !keepAll) continue;
    ++row.countedSteps;
    times.push_back(s.timeNs);
    owns.push_back(ownTime(s, waits));
    row.busyNs += s.busyNs;
    row.activeNs += s.activeNs;
    for (std::size_t c = 0; c < kGapCauseCount; ++c) row.idle.ns[c] += s.idle.ns[c];
    row.collectiveNs += s.collectiveNs;
    row.collectives += s.collectives;
    if (auto it = waits.find(s.step); it != waits.end()) row.waitNs += it->second;
  }
  row.stepTimeNs = lowerMedian(times);
  row.ownTimeNs = lowerMedian(owns);
  row.gpuBusyPct = 100.0 * analysis::busyShare(row.busyNs, row.activeNs);
  row.transferNs = row.collectiveNs - row.waitNs;
  return row;
}

std::vector<std::int64_t> allStepNumbers(const std::vector<RankTables>& ranks) {
  std::set<std::int64_t> numbers;
  for (const auto& r : ranks) {
    for (const auto& s : r.steps) numbers.insert(s.step);
  }
  return {numbers.begin(), numbers.end()};
}

// An excess over kStragglerMinNs and `share` of the median it exceeds.
bool bigEnough(TimeNs excess, TimeNs median, double share) {
  return excess > kStragglerMinNs && static_cast<double>(excess) > share * static_cast<double>(median);
}

// The lower median of the step excesses of the steps that two ranks or
// more have, at most kUsualExcessCap of their typical median, once there
// are enough of them to say what is usual; else 0.
TimeNs usualExcess(const std::vector<StepRow>& steps) {
  std::vector<TimeNs> excesses;
  std::vector<TimeNs> medians;
  for (const auto& s : steps) {
    if (s.ranks < 2 || s.warmUp) continue;
    // How far a step strays either way: a consistently slow rank's step
    // excess lies about 0, by its typical lag.
    excesses.push_back(s.excessNs < 0 ? -s.excessNs : s.excessNs);
    medians.push_back(s.medianNs);
  }
  if (excesses.size() < kStragglerSpreadMinSteps) return 0;
  const auto cap = static_cast<TimeNs>(kUsualExcessCap * static_cast<double>(lowerMedian(medians)));
  return std::min(lowerMedian(excesses), cap);
}

bool standsOut(TimeNs excess, TimeNs usual) {
  return static_cast<double>(excess) > kStragglerSpreadFactor * static_cast<double>(usual);
}

// A warm-up step of the set shows every rank's figures; another step the
// ranks that count it (a rank's own warm-up at that number is left out).
StepRow stepRow(std::int64_t number, bool warmUp, const std::vector<RankTables>& ranks,
                const std::vector<WaitByStep>& waits) {
  StepRow row;
  row.step = number;
  row.warmUp = warmUp;
  std::vector<TimeNs> owns;
  std::vector<TimeNs> times;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const RankStep* s = warmUp ? findStep(ranks[i], number) : judgedStep(ranks[i], number);
    if (!s) continue;
    const TimeNs own = ownTime(*s, waits[i]);
    owns.push_back(own);
    times.push_back(s->timeNs);
    if (row.ranks == 0 || own > row.slowestNs) {
      row.slowestRank = ranks[i].rank;
      row.slowestNs = own;
    }
    ++row.ranks;
    if (auto it = waits[i].find(number); it != waits[i].end()) row.maxWaitNs = std::max(row.maxWaitNs, it->second);
  }
  row.medianNs = lowerMedian(owns);
  row.stepTimeMedianNs = lowerMedian(times);
  return row;  // its excess and whether it straggles come with the ranks' typical excess (judgeSteps)
}

// Each rank's typical excess over the medians of the steps it shares with
// another rank, and whether that makes it consistently slow.
void markTypicalExcess(RanksAnalysis& result, const std::vector<RankTables>& ranks,
                       const std::vector<WaitByStep>& waits) {
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    std::vector<TimeNs> excesses;
    std::vector<TimeNs> medians;
    for (const auto& row : result.steps) {
      const RankStep* own = row.ranks < 2 || row.warmUp ? nullptr : judgedStep(ranks[i], row.step);
      if (!own) continue;
      excesses.push_back(ownTime(*own, waits[i]) - row.medianNs);
      medians.push_back(row.medianNs);
    }
    RankRow& r = result.ranks[i];
    r.typicalExcessNs = lowerMedian(excesses);
    r.typicalMedianNs = lowerMedian(medians);
    r.consistentlySlow = excesses.size() >= kStragglerSpreadMinSteps &&
                         bigEnough(r.typicalExcessNs, r.typicalMedianNs, kConsistentlySlowShare);
  }
}

// The step excess of every step, the usual one, and which steps straggle.
void judgeSteps(RanksAnalysis& result) {
  std::map<std::int64_t, const RankRow*> rowOfRank;
  for (const auto& r : result.ranks) rowOfRank[r.rank] = &r;
  for (auto& s : result.steps) {
    if (s.ranks < 2) continue;
    // A consistently slow rank's usual lag is not the step's doing.
    const RankRow* slowest = rowOfRank.at(s.slowestRank);
    s.excessNs = s.slowestNs - s.medianNs - (slowest->consistentlySlow ? slowest->typicalExcessNs : 0);
  }
  result.usualExcessNs = usualExcess(result.steps);
  for (auto& s : result.steps) {
    s.straggling = s.ranks > 1 && !s.warmUp && bigEnough(s.excessNs, s.medianNs, kStragglerShare) &&
                   standsOut(s.excessNs, result.usualExcessNs);
  }
}

analysis::IdleByCause extraIdle(const RankTables& straggler, std::int64_t step, const std::vector<RankTables>& ranks) {
  analysis::IdleByCause extra;
  const RankStep* own = judgedStep(straggler, step);
  for (std::size_t c = 0; c < kGapCauseCount; ++c) {
    std::vector<TimeNs> values;
    for (const auto& r : ranks) {
      if (const RankStep* s = judgedStep(r, step)) values.push_back(s->idle.ns[c]);
    }
    extra.ns[c] = std::max<TimeNs>(0, own->idle.ns[c] - lowerMedian(values));
  }
  return extra;
}

// GPU busy time outside collectives: a rank waiting for the others spins
// in its collective kernels, which keeps its GPU "busy" too.
TimeNs computeBusy(const RankStep& s) { return std::max<TimeNs>(0, s.busyNs - s.collectiveNs); }

TimeNs extraBusy(const RankTables& straggler, std::int64_t step, const std::vector<RankTables>& ranks) {
  std::vector<TimeNs> values;
  for (const auto& r : ranks) {
    if (const RankStep* s = judgedStep(r, step)) values.push_back(computeBusy(*s));
  }
  return std::max<TimeNs>(0, computeBusy(*judgedStep(straggler, step)) - lowerMedian(values));
}

void slowerKernel(const RankTables& straggler, const std::vector<RankTables>& ranks, StragglerCause& cause) {
  // Each rank's totals by name, looked up once per name rather than scanned.
  std::vector<std::unordered_map<std::string_view, TimeNs>> totalsByRank(ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    for (const auto& k : ranks[i].kernels) totalsByRank[i].emplace(k.name, k.totalNs);
  }
  for (const auto& k : straggler.kernels) {
    if (analysis::isCollectiveName(k.name)) continue;  // longer where the rank waited for the others
    std::vector<TimeNs> totals;
    for (const auto& byName : totalsByRank) {
      auto it = byName.find(k.name);
      totals.push_back(it == byName.end() ? 0 : it->second);
    }
    const TimeNs extra = k.totalNs - lowerMedian(totals);
    if (extra > cause.slowerKernelExtraNs || (extra == cause.slowerKernelExtraNs && extra > 0 && k.name < cause.slowerKernel)) {
      cause.slowerKernel = k.name;
      cause.slowerKernelExtraNs = extra;
    }
  }
}

StragglerCause causeOf(std::size_t index, const RanksAnalysis& result, const std::vector<RankTables>& ranks,
                       const std::vector<WaitByStep>& waits) {
  const RankTables& straggler = ranks[index];
  const bool hasStragglingSteps = result.ranks[index].stragglingSteps > 0;
  StragglerCause cause;
  cause.rank = straggler.rank;
  bool found = false;
  for (const auto& step : result.steps) {
    if (step.warmUp) continue;
    const bool slowest = step.slowestRank == straggler.rank;
    // The steps the verdict names: its straggling ones, or, for a rank that
    // is only consistently slow, every step it was the slowest in.
    if (slowest && (step.straggling || !hasStragglingSteps)) {
      for (std::size_t i = 0; i < ranks.size(); ++i) {
        if (i == index) continue;
        if (auto it = waits[i].find(step.step); it != waits[i].end()) cause.othersWaitedNs += it->second;
      }
    }
    if (hasStragglingSteps && !(slowest && step.straggling)) continue;
    const RankStep* own = judgedStep(straggler, step.step);
    if (!own) continue;
    const TimeNs excess = ownTime(*own, waits[index]) - step.medianNs;
    if (!found || excess > cause.excessNs) {
      found = true;
      cause.excessNs = excess;
      cause.worstStep = step.step;
    }
  }
  if (found) {
    cause.extraIdle = extraIdle(straggler, cause.worstStep, ranks);
    cause.extraBusyNs = extraBusy(straggler, cause.worstStep, ranks);
  }
  slowerKernel(straggler, ranks, cause);
  return cause;
}

std::string idlePhrase(std::size_t cause, TimeNs extraNs) {
  return "its GPU sat idle for " + std::string(analysis::gapCauseLabel(static_cast<GapCause>(cause))) + " " +
         millis(extraNs) + " longer than the median rank's";
}

// In the worst step, the larger of the two: the idle cause that grew most,
// or the GPU's extra busy time (a rank busy with more GPU work idles no
// longer than the others), with the kernel that took longer over the trace.
std::string causePhrase(const StragglerCause& c) {
  std::size_t top = 0;
  for (std::size_t i = 1; i < kGapCauseCount; ++i) {
    if (c.extraIdle.ns[i] > c.extraIdle.ns[top]) top = i;
  }
  const TimeNs idle = c.extraIdle.ns[top];
  if (idle > 0 && idle >= c.extraBusyNs) return idlePhrase(top, idle);
  if (c.extraBusyNs > 0) {
    std::string s = "its GPU was busy outside collectives " + millis(c.extraBusyNs) + " longer than the median rank's";
    if (c.slowerKernelExtraNs > 0) {
      s += " (over the trace its kernel " + c.slowerKernel + " took " + millis(c.slowerKernelExtraNs) + " longer)";
    }
    return s;
  }
  return "the time went to CPU work outside its GPU's activity";
}

std::string typicallySlower(const RankRow& row) {
  std::string s = "consistently slower, " + millis(row.typicalExcessNs) + " over the step's median own time";
  if (row.typicalMedianNs > 0) s += " (" + std::to_string(row.typicalExcessNs * 100 / row.typicalMedianNs) + "%)";
  return s + " in a typical step";
}

// The steps a straggler is named for (its straggling ones, else those it
// was the slowest in), the first kNamedStepsShown of them by number.
constexpr std::size_t kNamedStepsShown = 6;
std::vector<std::int64_t> namedSteps(const RankRow& row, const RanksAnalysis& r) {
  std::vector<std::int64_t> out;
  for (const StepRow& s : r.steps) {
    if (s.slowestRank == row.rank && !s.warmUp && (s.straggling || row.stragglingSteps == 0)) out.push_back(s.step);
  }
  return out;
}

std::string stepList(const std::vector<std::int64_t>& steps) {
  std::string s;
  for (std::size_t i = 0; i < steps.size() && i < kNamedStepsShown; ++i) s += (i ? ", " : "") + std::to_string(steps[i]);
  return steps.size() > kNamedStepsShown ? s + ", ..." : s;
}

// "16 steps", "15 steps after the warm-up", "14 steps after 2 warm-up
// steps": the steps the verdict judges.
std::string judgedSteps(const RanksAnalysis& r) {
  const auto warmUps = static_cast<std::size_t>(
      std::count_if(r.steps.begin(), r.steps.end(), [](const StepRow& s) { return s.warmUp; }));
  const std::size_t n = r.steps.size() - warmUps;
  const std::string after = warmUps == 0 ? ""
                            : warmUps == 1 ? " after the warm-up"
                                           : " after " + std::to_string(warmUps) + " warm-up steps";
  return std::to_string(n) + (n == 1 ? " step" : " steps") + after;
}

// How a straggler is slow: in which steps, and whether in a typical one.
std::string slowness(const RankRow& row, const RanksAnalysis& r) {
  if (row.stragglingSteps == 0) return typicallySlower(row);
  std::string s = "straggling in " + std::to_string(row.stragglingSteps) + " of " + judgedSteps(r) + " (" +
                  stepList(namedSteps(row, r)) + ")";
  if (row.consistentlySlow) s += ", and " + typicallySlower(row);
  return s;
}

// How long the other ranks waited for it (StragglerCause::othersWaitedNs)
// and in which steps; nothing for a rank that is only consistently slow and
// was the slowest in no step.
std::string waitClause(const StragglerCause& c, const RankRow& row, const RanksAnalysis& r) {
  std::string scope;
  if (row.stragglingSteps > 0) {
    scope = row.stragglingSteps == 1 ? "in that step" : "in those steps";
  } else {
    const std::size_t n = namedSteps(row, r).size();
    if (n == 0) return "";
    scope = "in the " + std::to_string(n) + (n == 1 ? " step" : " steps") + " it was the slowest in";
  }
  return "; the other ranks waited " + millis(c.othersWaitedNs) + " for it in collectives " + scope;
}

std::string noStraggler(const RanksAnalysis& r, const std::string& counts) {
  std::string v = "no straggler: in no step is the slowest rank's own time over the median rank's by more than 5% and 10 µs";
  if (r.usualExcessNs > 0) v += " and 3 times the steps' usual excess of " + millis(r.usualExcessNs);
  return v + ", and no rank is 10% slower in a typical step (" + counts + ")";
}

std::string verdictOf(const RanksAnalysis& r) {
  if (r.ranks.empty()) return "no ranks";
  const std::string counts = std::to_string(r.ranks.size()) + (r.ranks.size() == 1 ? " rank, " : " ranks, ") +
                             judgedSteps(r);
  if (r.ranks.size() == 1) return "one rank (" + counts + "): nothing to compare it with";
  if (r.stragglers.empty()) return noStraggler(r, counts);
  auto rowOf = [&](std::int64_t rank) -> const RankRow& {
    return *std::find_if(r.ranks.begin(), r.ranks.end(), [&](const RankRow& x) { return x.rank == rank; });
  };
  const StragglerCause& c = r.causes.front();
  const StepRow& worst = *std::find_if(r.steps.begin(), r.steps.end(), [&](const StepRow& s) { return s.step == c.worstStep; });
  std::string v = "rank " + std::to_string(c.rank) + " is the straggler: " + slowness(rowOf(c.rank), r) +
                  "; in step " + std::to_string(c.worstStep) + " it took " + millis(c.excessNs) +
                  " longer than the median rank's " + millis(worst.medianNs) + ", and " + causePhrase(c) +
                  waitClause(c, rowOf(c.rank), r);
  for (std::size_t i = 1; i < r.stragglers.size(); ++i) {
    const RankRow& other = rowOf(r.stragglers[i]);
    std::string how = other.stragglingSteps == 0 ? typicallySlower(other)
                                                 : std::to_string(other.stragglingSteps) +
                                                       (other.stragglingSteps == 1 ? " step" : " steps") +
                                                       (other.consistentlySlow ? ", consistently slower" : "");
    v += (i == 1 ? ". Also slow: rank " : "; rank ") + std::to_string(other.rank) + " (" + how + "; " +
         causePhrase(r.causes[i]) + ")";
  }
  return v;
}

}  // namespace

TimeNs collectiveWait(TimeNs start, TimeNs dur, TimeNs latestStart) {
  return std::clamp<TimeNs>(latestStart - start, 0, std::max<TimeNs>(dur, 0));
}

RanksAnalysis analyzeRanks(std::vector<RankTables> tables) {
  RanksAnalysis result;
  std::vector<RankTables> ranks = uniqueRanks(std::move(tables), result.notes);
  const WarmUps warmUps = markWarmUpSteps(ranks);
  const auto latest = latestStarts(ranks);
  std::vector<WaitByStep> waits;
  for (const auto& r : ranks) waits.push_back(waitsOf(r, latest));
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    result.ranks.push_back(rankRow(ranks[i], waits[i]));
    for (const auto& [step, wait] : waits[i]) result.waits.push_back({ranks[i].rank, step, wait});
  }
  for (std::int64_t number : allStepNumbers(ranks)) {
    result.steps.push_back(stepRow(number, warmUps.ofSet.count(number) > 0, ranks, waits));
  }
  markTypicalExcess(result, ranks, waits);
  judgeSteps(result);
  for (const auto& step : result.steps) {
    if (!step.straggling) continue;
    auto row = std::find_if(result.ranks.begin(), result.ranks.end(),
                            [&](const RankRow& x) { return x.rank == step.slowestRank; });
    ++row->stragglingSteps;
    row->excessNs += step.slowestNs - step.medianNs;
  }
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < result.ranks.size(); ++i) {
    if (result.ranks[i].stragglingSteps > 0 || result.ranks[i].consistentlySlow) order.push_back(i);
  }
  // Ranks with straggling steps have an excess; the consistently slow
  // ones without follow, by their typical excess.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const RankRow& x = result.ranks[a];
    const RankRow& y = result.ranks[b];
    return x.excessNs != y.excessNs ? x.excessNs > y.excessNs : x.typicalExcessNs > y.typicalExcessNs;
  });
  for (std::size_t i : order) {
    result.stragglers.push_back(result.ranks[i].rank);
    result.causes.push_back(causeOf(i, result, ranks, waits));
  }
  noteMismatchedCollectives(ranks, result.notes);
  noteWarmUpSteps(result, warmUps, ranks, result.notes);
  noteMixedStepMarks(ranks, result.notes);
  result.stepMark = commonStepMark(ranks);
  result.verdict = verdictOf(result);
  return result;
}

}  // namespace gapscope::ranks
