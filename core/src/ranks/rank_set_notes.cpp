// What the set of ranks is before any rank is judged (stragglers_detail.h):
// each rank once, the warm-up steps, and the notes.
#include <algorithm>

#include "stragglers_detail.h"

namespace gapscope::ranks::detail {
namespace {

// `record -o DIR/` writes a process that had no RANK (torchrun's agent, a
// helper that touched CUDA) as pid-N.json.gz: not a rank of the job.
bool isUnrankedProcess(const std::string& file) {
  const auto slash = file.find_last_of('/');
  return file.compare(slash == std::string::npos ? 0 : slash + 1, 4, "pid-") == 0;
}

}  // namespace

std::string rankList(const std::vector<std::int64_t>& ranks) {
  constexpr std::size_t kRanksListed = 8;
  std::string list = ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t i = 0; i < ranks.size() && i < kRanksListed; ++i) list += (i ? ", " : "") + std::to_string(ranks[i]);
  return ranks.size() > kRanksListed ? list + ", ..." : list;
}

namespace {

// What a rank's steps are, in words: the same for every rank of a job.
std::string stepMarkOf(const RankTables& r) {
  switch (r.stepSource) {
    case analysis::StepSource::ProfilerStep: return "ProfilerStep#N";
    case analysis::StepSource::RepeatedAnnotation: return "each " + r.stepName + " to the next";
    case analysis::StepSource::WholeTrace: break;
  }
  return "the whole trace";
}

}  // namespace

// Each rank once, unknown ranks numbered after the known ones.
std::vector<RankTables> uniqueRanks(std::vector<RankTables> tables, std::vector<std::string>& notes) {
  std::stable_sort(tables.begin(), tables.end(),
                   [](const RankTables& a, const RankTables& b) { return a.rank < b.rank; });
  std::set<std::int64_t> taken;
  std::vector<RankTables> out;
  std::vector<RankTables> unknown;
  for (auto& t : tables) {
    if (t.rank == kUnknownRank && isUnrankedProcess(t.file)) {
      notes.push_back(t.file + ": a process without a rank (RANK was not set), left out");
    } else if (t.rank == kUnknownRank) {
      unknown.push_back(std::move(t));
    } else if (!taken.insert(t.rank).second) {
      notes.push_back("rank " + std::to_string(t.rank) + " given twice: " + t.file + " left out");
    } else {
      out.push_back(std::move(t));
    }
  }
  std::int64_t next = 0;
  for (auto& t : unknown) {
    while (taken.count(next)) ++next;
    notes.push_back(t.file + " names no rank: taken as rank " + std::to_string(next));
    t.rank = next;
    taken.insert(next);
    out.push_back(std::move(t));
  }
  std::stable_sort(out.begin(), out.end(), [](const RankTables& a, const RankTables& b) { return a.rank < b.rank; });
  return out;
}
const RankStep* findStep(const RankTables& r, std::int64_t step) {
  auto it = std::lower_bound(r.steps.begin(), r.steps.end(), step,
                             [](const RankStep& s, std::int64_t n) { return s.step < n; });
  return it != r.steps.end() && it->step == step ? &*it : nullptr;
}

// Finds them, and marks every rank's steps of the set's warm-up numbers as
// warm-ups too: RankStep::warmUp then means "left out of this rank's figures".
WarmUps markWarmUpSteps(std::vector<RankTables>& ranks) {
  std::map<std::int64_t, std::pair<std::size_t, std::size_t>> counts;  // step -> (ranks calling it a warm-up, having it)
  for (const auto& r : ranks) {
    for (const auto& s : r.steps) {
      auto& [warm, having] = counts[s.step];
      warm += s.warmUp;
      ++having;
    }
  }
  WarmUps w;
  for (const auto& [step, c] : counts) {
    if (c.first > 0 && 2 * c.first >= c.second) w.ofSet.insert(step);
  }
  for (auto& r : ranks) {
    for (auto& s : r.steps) {
      if (s.warmUp && !w.ofSet.count(s.step)) w.rankOnly[s.step].push_back(r.rank);
      s.warmUp = s.warmUp || w.ofSet.count(s.step) > 0;
    }
  }
  return w;
}

// A rank's step of that number that its figures count: none when it has no
// such step or it is a warm-up.
const RankStep* judgedStep(const RankTables& r, std::int64_t step) {
  const RankStep* s = findStep(r, step);
  return s && !s->warmUp ? s : nullptr;
}

// Its steps but the warm-ups; all of them where nothing else is left (a
// rank that ended in its first step), which noteWarmUpSteps says.
bool onlyWarmUps(const RankTables& r) {
  return std::all_of(r.steps.begin(), r.steps.end(), [](const RankStep& s) { return s.warmUp; });
}
void noteMismatchedCollectives(const std::vector<RankTables>& ranks, std::vector<std::string>& notes) {
  std::map<std::int64_t, std::set<std::size_t>> countsByStep;
  for (const auto& r : ranks) {
    std::map<std::int64_t, std::size_t> perStep;
    for (const auto& c : r.collectives) ++perStep[c.step];
    for (const auto& s : r.steps) countsByStep[s.step].insert(perStep[s.step]);
  }
  std::uint64_t mismatched = 0;
  for (const auto& [step, counts] : countsByStep) mismatched += counts.size() > 1;
  if (mismatched > 0) {
    notes.push_back("in " + std::to_string(mismatched) + (mismatched == 1 ? " step" : " steps") +
                    " the ranks ran different numbers of collectives: waits there pair the k-th of each rank");
  }
}

// What was left out as a warm-up: each warm-up step of the set (its median
// time against the other steps' usual one, and the rank that held it up);
// a rank's own warm-up that most ranks do not share (its steps numbered
// otherwise); a rank with nothing but warm-ups, whose figures are of those.
void noteWarmUpSteps(const RanksAnalysis& result, const WarmUps& w, const std::vector<RankTables>& ranks,
                     std::vector<std::string>& notes) {
  std::vector<TimeNs> usual;
  for (const auto& s : result.steps) {
    if (!s.warmUp) usual.push_back(s.stepTimeMedianNs);
  }
  for (const auto& s : result.steps) {
    if (!s.warmUp) continue;
    notes.push_back("step " + std::to_string(s.step) + " is a warm-up (start-up or compilation): " +
                    millis(s.stepTimeMedianNs) + " against a median step of " + millis(lowerMedian(usual)) +
                    ", rank " + std::to_string(s.slowestRank) +
                    " the slowest in it; left out of the ranks' figures and the straggler analysis");
  }
  for (const auto& [step, members] : w.rankOnly) {
    notes.push_back("step " + std::to_string(step) + " is a warm-up on " + rankList(members) +
                    " but not on most ranks: left out of " + (members.size() == 1 ? "its" : "their") +
                    " figures (are the ranks' steps numbered alike?)");
  }
  std::vector<std::int64_t> onlyWarm;
  for (const auto& r : ranks) {
    if (onlyWarmUps(r)) onlyWarm.push_back(r.rank);
  }
  if (!onlyWarm.empty()) {
    notes.push_back(rankList(onlyWarm) + (onlyWarm.size() == 1 ? " has" : " have") +
                    " no step but a warm-up: " + (onlyWarm.size() == 1 ? "its" : "their") +
                    " figures are of the warm-up");
  }
}

namespace {

// The ranks of each step mark, in the order first seen (by rank).
using MarkGroups = std::vector<std::pair<std::string, std::vector<std::int64_t>>>;
MarkGroups stepMarkGroups(const std::vector<RankTables>& ranks) {
  MarkGroups groups;
  for (const auto& r : ranks) {
    const std::string mark = stepMarkOf(r);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == mark; });
    if (it == groups.end()) it = groups.insert(groups.end(), {mark, {}});
    it->second.push_back(r.rank);
  }
  return groups;
}

}  // namespace

// A note when the ranks' steps come from different marks (one rank logs in
// a range of its own, another has no ProfilerStep#N): step N of one rank
// may then be another iteration than step N of the next.
void noteMixedStepMarks(const std::vector<RankTables>& ranks, std::vector<std::string>& notes) {
  const MarkGroups groups = stepMarkGroups(ranks);
  if (groups.size() < 2) return;
  std::string list;
  for (const auto& [mark, members] : groups) list += (list.empty() ? "" : "; ") + rankList(members) + ": " + mark;
  notes.push_back("the ranks' steps come from different marks (" + list +
                  "): a step number may not be the same iteration on every rank");
}

std::string commonStepMark(const std::vector<RankTables>& ranks) {
  const MarkGroups groups = stepMarkGroups(ranks);
  auto most = std::max_element(groups.begin(), groups.end(),
                               [](const auto& x, const auto& y) { return x.second.size() < y.second.size(); });
  return most == groups.end() ? std::string() : most->first;
}

}  // namespace gapscope::ranks::detail
