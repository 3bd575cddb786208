// The ranks document both ways (ranks_json.h, ranks_document.h): each key
// is written and read in this file only, so the two cannot drift apart.
#include "gapscope/ranks/ranks_json.h"

#include <algorithm>
#include <stdexcept>

#include "gapscope/model/time_limits.h"
#include "gapscope/ranks/ranks_document.h"
#include "gapscope/report/json_parts.h"
#include "inflated_text.h"

namespace gapscope::ranks {

using nlohmann::json;
using nlohmann::ordered_json;
using report::idleJson;

// ---- writing ----

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

namespace {

ordered_json causeJson(const StragglerCause& c) {
  return ordered_json{{"rank", c.rank},
                      {"worst_step", c.worstStep},
                      {"excess_ns", c.excessNs},
                      {"extra_idle_ns", idleJson(c.extraIdle)},
                      {"extra_busy_ns", c.extraBusyNs},
                      {"slower_kernel", c.slowerKernel},
                      {"slower_kernel_extra_ns", c.slowerKernelExtraNs},
                      {"others_waited_ns", c.othersWaitedNs}};
}

}  // namespace

ordered_json ranksDocumentJson(const RanksAnalysis& a, const std::vector<std::string>& warnings,
                               const std::vector<RankLoadError>& errors) {
  ordered_json j;
  j["ranks"] = ordered_json::array();
  for (const auto& r : a.ranks) j["ranks"].push_back(rankRowJson(r));
  j["steps"] = ordered_json::array();
  for (const auto& s : a.steps) j["steps"].push_back(rankStepJson(s));
  j["usual_excess_ns"] = a.usualExcessNs;
  j["step_mark"] = a.stepMark;
  j["stragglers"] = a.stragglers;
  j["causes"] = ordered_json::array();
  for (const auto& c : a.causes) j["causes"].push_back(causeJson(c));
  j["verdict"] = a.verdict;
  j["notes"] = a.notes;
  j["warnings"] = warnings;
  j["errors"] = ordered_json::array();
  for (const auto& e : errors) j["errors"].push_back(ordered_json{{"file", e.file}, {"message", e.message}});
  return j;
}

// ---- reading ----

namespace {

// The values of one JSON object, each checked as it is taken; a value that
// is missing or out of range throws, naming where it is ("ranks[3].busy_ns").
class Fields {
 public:
  Fields(const json& object, std::string where) : object_(object), where_(std::move(where)) {
    if (!object_.is_object()) fail(where_, "expected an object");
  }

  const json& value(const char* key) const {
    auto it = object_.find(key);
    if (it == object_.end()) fail(where_, std::string("no \"") + key + "\"");
    return *it;
  }
  std::string at(const char* key) const { return where_ + "." + key; }

  // Nanoseconds: a non-negative integer no larger than the model allows.
  TimeNs ns(const char* key) const {
    const json& v = value(key);
    if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > kMaxAbsTimeNs)
      fail(at(key), "expected a non-negative integer of nanoseconds");
    return v.get<TimeNs>();
  }
  // A difference of times (an excess over a median): an integer within the model's range either side of 0.
  TimeNs signedNs(const char* key) const {
    const json& v = value(key);
    if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<std::uint64_t>() > kMaxAbsTimeNs) ||
        !isTimeInRange(v.get<std::int64_t>()))
      fail(at(key), "expected an integer of nanoseconds");
    return v.get<TimeNs>();
  }
  std::uint64_t count(const char* key) const {
    const json& v = value(key);
    if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<std::int64_t>() < 0))
      fail(at(key), "expected a non-negative integer");
    return v.get<std::uint64_t>();
  }
  std::int64_t integer(const char* key) const {
    const json& v = value(key);
    if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<std::uint64_t>() > INT64_MAX))
      fail(at(key), "expected an integer");
    return v.get<std::int64_t>();
  }
  double percent(const char* key) const {
    const json& v = value(key);
    if (!v.is_number() || !(v.get<double>() >= 0.0 && v.get<double>() <= 100.0))
      fail(at(key), "expected a percentage from 0 to 100");
    return v.get<double>();
  }
  bool flag(const char* key) const {
    const json& v = value(key);
    if (!v.is_boolean()) fail(at(key), "expected true or false");
    return v.get<bool>();
  }
  std::string text(const char* key) const {
    const json& v = value(key);
    if (!v.is_string()) fail(at(key), "expected a string");
    return v.get<std::string>();
  }
  const json& array(const char* key) const {
    const json& v = value(key);
    if (!v.is_array()) fail(at(key), "expected an array");
    return v;
  }
  // Idle by cause: a rank's own (non-negative) or a difference from the median rank's (signed).
  analysis::IdleByCause idle(const char* key, bool difference = false) const {
    Fields f(value(key), at(key));
    analysis::IdleByCause idle;
    for (std::size_t c = 0; c < analysis::kGapCauseCount; ++c) {
      const char* cause = analysis::gapCauseName(static_cast<analysis::GapCause>(c));
      idle.ns[c] = difference ? f.signedNs(cause) : f.ns(cause);
    }
    return idle;
  }

  [[noreturn]] static void fail(const std::string& where, const std::string& what) {
    throw std::invalid_argument(where + ": " + what);
  }

 private:
  const json& object_;
  std::string where_;
};

std::string element(const char* array, std::size_t i) { return std::string(array) + "[" + std::to_string(i) + "]"; }

RankRow rankRowOf(const json& j, const std::string& where) {
  const Fields f(j, where);
  RankRow r;
  r.rank = f.integer("rank");
  r.file = f.text("file");
  r.steps = f.count("steps");
  r.countedSteps = f.count("counted_steps");
  r.stepTimeNs = f.ns("step_time_ns");
  r.ownTimeNs = f.ns("own_time_ns");
  r.gpuBusyPct = f.percent("gpu_busy_pct");
  r.busyNs = f.ns("busy_ns");
  r.activeNs = f.ns("active_ns");
  r.collectiveNs = f.ns("collective_ns");
  r.waitNs = f.ns("collective_wait_ns");
  r.transferNs = f.ns("collective_transfer_ns");
  r.collectives = f.count("collectives");
  r.idle = f.idle("idle_by_cause_ns");
  r.stragglingSteps = f.count("straggling_steps");
  r.excessNs = f.signedNs("excess_ns");
  r.typicalExcessNs = f.signedNs("typical_excess_ns");
  r.typicalMedianNs = f.ns("typical_median_ns");
  r.consistentlySlow = f.flag("consistently_slow");
  if (r.countedSteps > r.steps) Fields::fail(f.at("counted_steps"), "more than its steps");
  if (r.busyNs > r.activeNs) Fields::fail(f.at("busy_ns"), "more than its active_ns");
  if (r.waitNs > r.collectiveNs) Fields::fail(f.at("collective_wait_ns"), "more than its collective_ns");
  return r;
}

StepRow stepRowOf(const json& j, const std::string& where) {
  const Fields f(j, where);
  StepRow s;
  s.step = f.integer("step");
  s.ranks = f.count("ranks");
  s.slowestRank = f.integer("slowest_rank");
  s.slowestNs = f.ns("slowest_ns");
  s.medianNs = f.ns("median_ns");
  s.stepTimeMedianNs = f.ns("step_time_median_ns");
  s.maxWaitNs = f.ns("max_wait_ns");
  s.excessNs = f.signedNs("excess_ns");
  s.straggling = f.flag("straggling");
  s.warmUp = f.flag("warm_up");
  return s;
}

StragglerCause causeOf(const json& j, const std::string& where) {
  const Fields f(j, where);
  StragglerCause c;
  c.rank = f.integer("rank");
  c.worstStep = f.integer("worst_step");
  c.excessNs = f.signedNs("excess_ns");
  c.extraIdle = f.idle("extra_idle_ns", true);
  c.extraBusyNs = f.ns("extra_busy_ns");
  c.slowerKernel = f.text("slower_kernel");
  c.slowerKernelExtraNs = f.ns("slower_kernel_extra_ns");
  c.othersWaitedNs = f.ns("others_waited_ns");
  return c;
}

template <typename Row, typename Read>
std::vector<Row> rowsOf(const Fields& f, const char* key, Read read) {
  std::vector<Row> rows;
  const json& array = f.array(key);
  for (std::size_t i = 0; i < array.size(); ++i) rows.push_back(read(array[i], element(key, i)));
  return rows;
}

std::vector<std::string> textsOf(const Fields& f, const char* key) {
  std::vector<std::string> texts;
  const json& array = f.array(key);
  for (std::size_t i = 0; i < array.size(); ++i) {
    if (!array[i].is_string()) Fields::fail(element(key, i), "expected a string");
    texts.push_back(array[i].get<std::string>());
  }
  return texts;
}

// Rows sorted by their number, each number once: `ranks` writes them so,
// and a comparison pairs them by it.
template <typename Row>
void sortUnique(std::vector<Row>& rows, std::int64_t Row::*number, const char* key, const char* what) {
  std::stable_sort(rows.begin(), rows.end(), [&](const Row& x, const Row& y) { return x.*number < y.*number; });
  for (std::size_t i = 1; i < rows.size(); ++i) {
    if (rows[i].*number == rows[i - 1].*number)
      Fields::fail(key, std::string(what) + " " + std::to_string(rows[i].*number) + " given twice");
  }
}

// The comparison sums the ranks' times; a document whose sums would not
// fit the model's range is refused rather than wrapped round.
void checkSums(const std::vector<RankRow>& ranks) {
  const auto check = [&](const char* key, auto value) {
    TimeNs sum = 0;
    for (const RankRow& r : ranks) {
      if (__builtin_add_overflow(sum, value(r), &sum) || sum > kMaxAbsTimeNs)
        Fields::fail("ranks", std::string(key) + " summed over the ranks is out of range");
    }
  };
  check("active_ns", [](const RankRow& r) { return r.activeNs; });
  check("collective_ns", [](const RankRow& r) { return r.collectiveNs; });
  for (std::size_t c = 0; c < analysis::kGapCauseCount; ++c)
    check("idle_by_cause_ns", [c](const RankRow& r) { return r.idle.ns[c]; });
}

RanksDocument documentOf(const json& j) {
  const Fields f(j, "the document");
  RanksDocument d;
  RanksAnalysis& a = d.analysis;
  a.ranks = rowsOf<RankRow>(f, "ranks", rankRowOf);
  a.steps = rowsOf<StepRow>(f, "steps", stepRowOf);
  a.usualExcessNs = f.signedNs("usual_excess_ns");
  a.stepMark = f.text("step_mark");
  const json& stragglers = f.array("stragglers");
  for (std::size_t i = 0; i < stragglers.size(); ++i) {
    if (!stragglers[i].is_number_integer()) Fields::fail(element("stragglers", i), "expected a rank number");
    a.stragglers.push_back(stragglers[i].get<std::int64_t>());
  }
  a.causes = rowsOf<StragglerCause>(f, "causes", causeOf);
  a.verdict = f.text("verdict");
  a.notes = textsOf(f, "notes");
  d.warnings = textsOf(f, "warnings");
  const json& errors = f.array("errors");
  for (std::size_t i = 0; i < errors.size(); ++i) {
    const Fields e(errors[i], element("errors", i));
    d.errors.push_back(RankLoadError{e.text("file"), e.text("message")});
  }
  sortUnique(a.ranks, &RankRow::rank, "ranks", "rank");
  sortUnique(a.steps, &StepRow::step, "steps", "step");
  checkSums(a.ranks);
  return d;
}

// "PATH:LINE:COLUMN (byte N): not valid JSON: why", as the trace reader
// places its errors (N from 0, the column in bytes from 1).
std::string syntaxError(const std::string& path, const std::string& text, const json::parse_error& e) {
  const std::size_t offset = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
  const auto lineStart = text.rfind('\n', offset == 0 ? std::string::npos : offset - 1);
  const std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
  const std::size_t column = offset - (lineStart == std::string::npos ? 0 : lineStart + 1) + 1;
  // nlohmann's own words after its "parse error at line L, column C: ".
  const std::string what = e.what();
  const std::size_t at = what.find(": ", what.find("column"));
  const std::string why = at == std::string::npos ? "syntax error" : what.substr(at + 2);
  return path + ":" + std::to_string(line) + ":" + std::to_string(column) + " (byte " + std::to_string(offset) +
         "): not valid JSON: " + why;
}

}  // namespace

bool looksLikeRanksDocument(const std::string& path) {
  const std::string start = inflatedStart(path, 64);
  const auto next = [&](std::size_t p) { return start.find_first_not_of(" \t\r\n", p); };
  const std::size_t brace = next(0);
  if (brace == std::string::npos || start[brace] != '{') return false;
  const std::size_t key = next(brace + 1);
  return key != std::string::npos && start.compare(key, 7, "\"ranks\"") == 0;
}

RanksDocument readRanksDocument(const std::string& path) { return parseRanksDocument(inflatedText(path), path); }

RanksDocument parseRanksDocument(const std::string& text, const std::string& path) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw std::runtime_error(syntaxError(path, text, e));
  } catch (const json::exception& e) {  // a number past a double ("1e999"): nlohmann gives no place
    const std::string what = e.what();
    throw std::runtime_error(path + ": not valid JSON: " + what.substr(what.find(']') + 2));
  }
  try {
    return documentOf(j);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(path + ": not a ranks document as `gapscope-cli ranks --format json` writes it: " +
                             e.what());
  }
}

}  // namespace gapscope::ranks
