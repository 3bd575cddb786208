// Two runs of a distributed job compared from their straggler analyses
// (set_compare.h): the job's figures, ranks and steps paired by number, a
// verdict and what makes the runs less comparable.
#include "gapscope/ranks/set_compare.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "gapscope/compare/compare.h"
#include "gapscope/format/duration.h"
#include "gapscope/format/number.h"
#include "stragglers_detail.h"

namespace gapscope::ranks {
namespace {

using detail::rankList;

// A GPU busy share must move by at least this many points to be told.
constexpr double kBusyPoints = 1.0;
// Within this share, two waits per step count as the same.
constexpr double kSameWait = 0.05;

std::string duration(TimeNs ns) { return format::formatDuration(ns, format::DurationStyle::Verdict); }
std::string percent(double pct) { return format::formatPercent(pct, format::PercentStyle::Verdict); }

const RankRow* rowOf(const RanksAnalysis& run, std::int64_t rank) {
  auto it = std::find_if(run.ranks.begin(), run.ranks.end(), [&](const RankRow& r) { return r.rank == rank; });
  return it == run.ranks.end() ? nullptr : &*it;
}

std::string stepsWord(std::uint64_t n) { return n == 1 ? " step" : " steps"; }

// "straggling in 2 of 15 steps", "consistently slower (by 12% of a typical
// step)", or both.
std::string howSlow(const RankRow& r, const SetFigures& run) {
  std::string s;
  if (r.stragglingSteps > 0)
    s = "straggling in " + std::to_string(r.stragglingSteps) + " of " + std::to_string(run.steps) + stepsWord(run.steps);
  if (r.consistentlySlow) {
    // In double: 100 x a time read from a ranks document may be past int64,
    // and so may the share (an excess of 95 years over a 1 ns step).
    const double pct =
        r.typicalMedianNs > 0 ? 100.0 * static_cast<double>(r.typicalExcessNs) / static_cast<double>(r.typicalMedianNs)
                              : 0.0;
    const auto share = static_cast<std::int64_t>(std::clamp(pct, -1e18, 1e18));
    s += (s.empty() ? "" : " and ") + std::string("consistently slower (by ") + std::to_string(share) +
         "% of a typical step)";
  }
  return s;
}

// The main straggler of each run, in words.
std::string stragglerSentence(const RanksAnalysis& a, const RanksAnalysis& b, const SetFigures& fa,
                              const SetFigures& fb) {
  const RankRow* la = a.stragglers.empty() ? nullptr : rowOf(a, a.stragglers.front());
  const RankRow* lb = b.stragglers.empty() ? nullptr : rowOf(b, b.stragglers.front());
  const auto name = [](const RankRow& r) { return "rank " + std::to_string(r.rank); };
  if (!la && !lb) return "no rank straggles in A or B";
  if (la && !lb) return "the straggler is gone: " + name(*la) + " was " + howSlow(*la, fa) + " in A, no rank straggles in B";
  if (!la) return "B has a straggler A had not: " + name(*lb) + ", " + howSlow(*lb, fb);
  if (la->rank == lb->rank && la->stragglingSteps > 0 && lb->stragglingSteps == 0)
    return name(*la) + " no longer straggles in single steps (" + std::to_string(la->stragglingSteps) + " of " +
           std::to_string(fa.steps) + " in A, none in B) but is " + howSlow(*lb, fb) + " in B";
  if (la->rank == lb->rank)
    return name(*la) + " is still the straggler: in A " + howSlow(*la, fa) + ", in B " + howSlow(*lb, fb);
  return "the straggler moved from " + name(*la) + " (" + howSlow(*la, fa) + " in A) to " + name(*lb) + " (" +
         howSlow(*lb, fb) + " in B)";
}

std::string waitSentence(const SetFigures& a, const SetFigures& b) {
  const TimeNs wa = a.waitPerStepNs;
  const TimeNs wb = b.waitPerStepNs;
  const std::string what = " a step waiting for each other in collectives";
  if (std::abs(static_cast<double>(wb - wa)) <= kSameWait * static_cast<double>(std::max(wa, wb)))
    return "the ranks spent about as long" + what + " (" + duration(wa) + ")";
  return "the ranks spent " + duration(wa) + " -> " + duration(wb) + what;
}

std::string busySentence(const SetFigures& a, const SetFigures& b) {
  if (std::abs(b.gpuBusyPct - a.gpuBusyPct) < kBusyPoints) return "GPU busy about the same (" + percent(a.gpuBusyPct) + ")";
  return std::string("GPU busy ") + (b.gpuBusyPct > a.gpuBusyPct ? "rose" : "fell") + " from " + percent(a.gpuBusyPct) +
         " to " + percent(b.gpuBusyPct) + " of the ranks' active time";
}

void noteOtherRanks(const RankSetComparison& c, std::vector<std::string>& notes) {
  std::vector<std::int64_t> onlyA;
  std::vector<std::int64_t> onlyB;
  for (const auto& r : c.ranks) {
    if (!r.b) onlyA.push_back(r.rank);
    if (!r.a) onlyB.push_back(r.rank);
  }
  if (onlyA.empty() && onlyB.empty()) return;
  std::string s = "A has " + std::to_string(c.runs[0].ranks) + " ranks, B " + std::to_string(c.runs[1].ranks);
  if (!onlyA.empty()) s += "; " + rankList(onlyA) + " only in A";
  if (!onlyB.empty()) s += "; " + rankList(onlyB) + " only in B";
  notes.push_back(s + ": the rank table pairs ranks by number, the job's figures are each run's own");
}

// The rows of both runs paired by their number (a rank, a step), in order.
template <typename Change, typename Row>
std::vector<Change> paired(const std::vector<Row>& a, const std::vector<Row>& b, std::int64_t Row::*number,
                           std::int64_t Change::*key) {
  std::map<std::int64_t, Change> byNumber;
  for (const Row& r : a) byNumber[r.*number].a = r;
  for (const Row& r : b) byNumber[r.*number].b = r;
  std::vector<Change> out;
  for (auto& [n, change] : byNumber) {
    change.*key = n;
    out.push_back(std::move(change));
  }
  return out;
}

// With several recordings a side, the speed is told against their spread.
std::string verdictOf(const RankSetComparison& c, const RanksAnalysis& a, const RanksAnalysis& b) {
  const SetFigures& fa = c.runs[0];
  const SetFigures& fb = c.runs[1];
  const compare::StepSpreadTest& test = c.recordings[0].empty() ? c.stepSpread : c.runToRun;
  std::string v = compare::speedPhrase(fa.stepTimeNs, fb.stepTimeNs, test) + "; " + stragglerSentence(a, b, fa, fb);
  if (fa.collectivePerStepNs > 0 || fb.collectivePerStepNs > 0) v += "; " + waitSentence(fa, fb);
  return v + "; " + busySentence(fa, fb) + ".";
}


}  // namespace

TimeNs perCountedStep(TimeNs total, const RankRow& row) {
  return row.countedSteps > 0 ? total / static_cast<TimeNs>(row.countedSteps) : 0;
}

SetFigures setFigures(const RanksAnalysis& run) {
  SetFigures f;
  f.ranks = run.ranks.size();
  for (const auto& s : run.steps) {
    if (s.warmUp) continue;
    ++f.steps;
    f.stragglingSteps += s.straggling;
    f.stepTimes.push_back(s.stepTimeMedianNs);
  }
  f.stepTimeNs = detail::lowerMedian(f.stepTimes);
  TimeNs busy = 0;
  TimeNs active = 0;
  TimeNs collective = 0;
  TimeNs wait = 0;
  analysis::IdleByCause idle;
  for (const auto& r : run.ranks) {
    f.rankSteps += r.countedSteps;
    busy += r.busyNs;
    active += r.activeNs;
    collective += r.collectiveNs;
    wait += r.waitNs;
    for (std::size_t c = 0; c < analysis::kGapCauseCount; ++c) idle.ns[c] += r.idle.ns[c];
  }
  f.gpuBusyPct = 100.0 * analysis::busyShare(busy, active);
  if (f.rankSteps > 0) {
    const auto n = static_cast<TimeNs>(f.rankSteps);
    f.collectivePerStepNs = collective / n;
    f.waitPerStepNs = wait / n;
    for (std::size_t c = 0; c < analysis::kGapCauseCount; ++c) f.idlePerStep.ns[c] = idle.ns[c] / n;
  }
  f.stragglers = run.stragglers;
  f.stepMark = run.stepMark;
  return f;
}

RankSetComparison compareRankSets(const RanksAnalysis& a, const RanksAnalysis& b) {
  RankSetComparison c;
  c.runs = {setFigures(a), setFigures(b)};
  const SetFigures& fa = c.runs[0];
  const SetFigures& fb = c.runs[1];
  c.ranks = paired<RankChange>(a.ranks, b.ranks, &RankRow::rank, &RankChange::rank);
  c.steps = paired<StepChange>(a.steps, b.steps, &StepRow::step, &StepChange::step);
  if (fa.stepTimeNs > 0 && fb.stepTimeNs > 0)
    c.speedup = static_cast<double>(fa.stepTimeNs) / static_cast<double>(fb.stepTimeNs);
  c.stepSpread = compare::stepSpreadTest(fa.stepTimes, fb.stepTimes);
  c.verdict = verdictOf(c, a, b);

  noteOtherRanks(c, c.notes);
  if (fa.stepMark != fb.stepMark)
    c.notes.push_back("the runs define a step differently: A by " + fa.stepMark + ", B by " + fb.stepMark);
  for (const auto& n : a.notes) c.notes.push_back("A: " + n);
  for (const auto& n : b.notes) c.notes.push_back("B: " + n);
  return c;
}

RankSetComparison compareRankSetRecordings(const std::array<std::vector<const RanksAnalysis*>, 2>& runs,
                                            const std::array<std::vector<std::string>, 2>& names) {
  std::array<std::vector<compare::Recording>, 2> recordings;
  std::array<std::size_t, 2> typical{};
  for (std::size_t side = 0; side < 2; ++side) {
    if (runs[side].empty() || runs[side].size() != names[side].size())
      throw std::invalid_argument(std::string("run ") + "AB"[side] + ": every recording needs its name, and one at least");
  }
  if (runs[0].size() == 1 && runs[1].size() == 1) return compareRankSets(*runs[0][0], *runs[1][0]);
  for (std::size_t side = 0; side < 2; ++side) {
    for (std::size_t i = 0; i < runs[side].size(); ++i) {
      const SetFigures f = setFigures(*runs[side][i]);
      recordings[side].push_back({names[side][i], f.steps, f.stepTimeNs, false});
    }
    typical[side] = compare::typicalRecording(recordings[side]);
    recordings[side][typical[side]].typical = true;
  }
  const RanksAnalysis& a = *runs[0][typical[0]];
  const RanksAnalysis& b = *runs[1][typical[1]];
  RankSetComparison c = compareRankSets(a, b);
  c.runToRun = compare::recordingsTest(recordings);
  for (std::string& n : compare::untimedRecordings(recordings)) c.notes.push_back(std::move(n));
  c.recordings = std::move(recordings);
  c.verdict = verdictOf(c, a, b);
  return c;
}

}  // namespace gapscope::ranks
