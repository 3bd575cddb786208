#include "top_level.h"

#include <nlohmann/json.hpp>

#include "gapscope/io/recording_issues.h"

#include "decimal_time.h"
#include "json_text.h"

namespace gapscope::io {

namespace {

std::string describeTopLevelValue(char c) {
  if (c == '"') return "a JSON string";
  if (c == '-' || (c >= '0' && c <= '9')) return "a JSON number";
  if (c == 't' || c == 'f') return "a JSON boolean";
  if (c == 'n') return "JSON null";
  return {};
}

constexpr const char* kNotATrace = "not a JSON trace: expected '{' or '[', ";

DeviceProperties deviceFromJson(const nlohmann::json& j, std::string raw) {
  DeviceProperties d;
  auto getInt = [&](const char* key, auto* out) {
    auto it = j.find(key);
    if (it != j.end() && it->is_number_integer()) *out = it->template get<std::remove_pointer_t<decltype(out)>>();
  };
  getInt("id", &d.id);
  getInt("numSms", &d.numSms);
  getInt("computeMajor", &d.computeMajor);
  getInt("computeMinor", &d.computeMinor);
  getInt("maxThreadsPerMultiprocessor", &d.maxThreadsPerMultiprocessor);
  getInt("regsPerMultiprocessor", &d.regsPerMultiprocessor);
  getInt("sharedMemPerMultiprocessor", &d.sharedMemPerMultiprocessor);
  getInt("totalGlobalMem", &d.totalGlobalMem);
  auto name = j.find("name");
  if (name != j.end() && name->is_string()) d.name = name->get<std::string>();
  d.rawJson = std::move(raw);
  return d;
}

// The elements of a JSON array as written (the array is known valid).
std::vector<std::string_view> arrayElements(std::string_view raw) {
  std::vector<std::string_view> out;
  std::size_t p = skipSpaces(raw, 1);
  while (p < raw.size() && raw[p] != ']') {
    ValueExtent e = scanValueEnd(raw, p);
    out.push_back(raw.substr(p, e.end - p));
    p = skipSpaces(raw, e.end);
    if (p < raw.size() && raw[p] == ',') p = skipSpaces(raw, p + 1);
  }
  return out;
}

void applyDeviceProperties(const TopLevelEntry& e, TraceMetadata& m, ImportIssues& issues) {
  if (e.raw.empty() || e.raw[0] != '[') {
    issues.add("bad_device_properties", Severity::Warning, e.offset, "deviceProperties is not an array: ignored");
    return;
  }
  for (std::string_view element : arrayElements(e.raw)) {
    nlohmann::json j = nlohmann::json::parse(element, nullptr, false);
    if (!j.is_object()) {
      issues.add("bad_device_properties", Severity::Warning, e.offset,
                 "a deviceProperties entry is not an object: ignored");
      continue;
    }
    m.devices.push_back(deviceFromJson(j, std::string(element)));
  }
}

}  // namespace

TopLevelStream::TopLevelStream(TopLevelMode mode, std::uint64_t base)
    : state_(mode == TopLevelMode::Start            ? State::Start
             : mode == TopLevelMode::AfterBareArray ? State::AfterTop
                                                    : State::AfterMember),
      offset_(base),
      begin_(base),
      sawEvents_(mode != TopLevelMode::Start) {}

TopLevelStep TopLevelStream::feed(std::string_view piece, bool eof) {
  std::size_t i = 0;
  while (i < piece.size()) {
    if (step(piece, i)) return std::move(step_);
  }
  if (eof && atEof()) return std::move(step_);
  TopLevelStep more;
  more.status = TopLevelStep::Status::NeedMore;
  return more;
}

bool TopLevelStream::atEof() {
  using S = TopLevelStep::Status;
  switch (state_) {
    case State::Start:
      if (offset_ == begin_) {
        step_.positioned = false;
        return decide(S::Error, begin_, "the file is empty");
      }
      return decide(S::Error, offset_, "the file contains only white space");
    case State::Bom1:
    case State::Bom2:
      return decide(S::Error, begin_, std::string(kNotATrace) + "found byte 0xef");
    case State::AfterTop:
      return decide(S::Finished, offset_);
    default:
      return decide(S::Truncated, offset_);
  }
}

bool TopLevelStream::decide(TopLevelStep::Status status, std::uint64_t pos, std::string message) {
  step_.status = status;
  step_.pos = pos;
  step_.message = std::move(message);
  return true;
}

void TopLevelStream::keep(std::string* into, std::string_view bytes) {
  if (over_) return;
  if (into->size() + bytes.size() > kMaxKeptTopLevelBytes) {
    over_ = true;
    std::string().swap(*into);
    return;
  }
  into->append(bytes);
}

bool TopLevelStream::closeObject(std::uint64_t at) {
  if (!sawEvents_) return decide(TopLevelStep::Status::Error, at, "the top-level object has no \"traceEvents\" array");
  state_ = State::AfterTop;
  return false;
}

// Feeds a key or value string to value_ and keeps its bytes; true once decided (an error).
bool TopLevelStream::readString(JsonValueStream::Result r, std::string* into, std::string_view rest, std::size_t& i) {
  using R = JsonValueStream::Result::Status;
  if (r.status == R::Error) return decide(TopLevelStep::Status::Error, offset_ + r.pos, std::move(r.message));
  const std::size_t used = r.status == R::Done ? r.pos : rest.size();
  keep(into, rest.substr(0, used));
  i += used;
  offset_ += used;
  return false;
}

bool TopLevelStream::step(std::string_view piece, std::size_t& i) {
  using S = TopLevelStep::Status;
  using R = JsonValueStream::Result::Status;
  const bool skipsSpace = state_ != State::KeyText && state_ != State::ValueText && state_ != State::Bom1 &&
                          state_ != State::Bom2 && !(state_ == State::Start && offset_ == begin_);
  if (skipsSpace && isJsonSpace(piece[i])) {
    const std::size_t from = i;
    while (i < piece.size() && isJsonSpace(piece[i])) ++i;
    offset_ += i - from;
    return false;
  }
  const char c = piece[i];
  const std::uint64_t at = offset_;
  bool decided = false;
  bool consume = true;
  switch (state_) {
    case State::Start:
      if (at == begin_ && c == '\xEF') {
        state_ = State::Bom1;
      } else if (isJsonSpace(c)) {
      } else if (c == '[') {
        step_.bareArray = true;
        decided = decide(S::EventsStart, at + 1);
      } else if (c == '{') {
        state_ = State::ObjectFirst;
      } else if (std::string kind = describeTopLevelValue(c); !kind.empty()) {
        decided = decide(S::Error, at, "the file holds " + kind +
                                           ", not a trace: expected an object with \"traceEvents\" or an array of events");
      } else {
        decided = decide(S::Error, at, kNotATrace + describeFound(piece, i));
      }
      break;
    case State::Bom1:
    case State::Bom2:
      if (c != (state_ == State::Bom1 ? '\xBB' : '\xBF')) {
        decided = decide(S::Error, begin_, std::string(kNotATrace) + "found byte 0xef");
      } else {
        state_ = state_ == State::Bom1 ? State::Bom2 : State::Start;
      }
      break;
    case State::ObjectFirst:
    case State::Key:
      if (c == '}' && state_ == State::ObjectFirst) {
        decided = closeObject(at);
      } else if (c != '"') {
        decided = decide(S::Error, at, "expected '\"' to start an object key, " + describeFound(piece, i));
      } else {
        keyOffset_ = at;
        key_.clear();
        raw_.clear();
        over_ = false;
        value_.reset();
        state_ = State::KeyText;
        consume = false;
      }
      break;
    case State::KeyText: {
      std::string_view rest = piece.substr(i);
      JsonValueStream::Result r = value_.feed(rest);
      const bool done = r.status == R::Done;
      if (readString(std::move(r), &key_, rest, i)) return true;
      if (done) {
        std::string key;
        if (!over_ && key_.size() >= 2) unescapeJsonString(std::string_view(key_).substr(1, key_.size() - 2), &key);
        key_ = std::move(key);
        state_ = State::Colon;
      }
      return false;
    }
    case State::Colon:
      if (c != ':') decided = decide(S::Error, at, "expected ':' after an object key, " + describeFound(piece, i));
      else state_ = State::BeforeValue;
      break;
    case State::BeforeValue:
      if (key_ == "traceEvents" && !sawEvents_ && !over_) {
        if (c != '[') {
          decided = decide(S::Error, at, "\"traceEvents\" must be an array, " + describeFound(piece, i));
        } else {
          sawEvents_ = true;
          decided = decide(S::EventsStart, at + 1);
        }
      } else {
        value_.reset();
        state_ = State::ValueText;
        consume = false;
      }
      break;
    case State::ValueText: {
      std::string_view rest = piece.substr(i);
      JsonValueStream::Result r = value_.feed(rest);
      const bool done = r.status == R::Done;
      if (readString(std::move(r), &raw_, rest, i)) return true;
      if (done) {
        step_.entries.push_back({std::move(key_), over_ ? std::string() : std::move(raw_), keyOffset_, over_});
        key_.clear();
        raw_.clear();
        state_ = State::AfterMember;
      }
      return false;
    }
    case State::AfterMember:
      if (c == '}') decided = closeObject(at);
      else if (c == ',') state_ = State::Key;
      else decided = decide(S::Error, at, "expected ',' or '}' after a top-level member, " + describeFound(piece, i));
      break;
    case State::AfterTop:
      // Some writers pad files with NUL bytes; they carry nothing.
      if (c != '\0') decided = decide(S::Error, at, "unexpected content after the end of the trace, " + describeFound(piece, i));
      break;
  }
  if (decided) return true;
  if (consume) {
    ++i;
    ++offset_;
  }
  return false;
}

namespace {

// Kept as a member too, so a rewritten trace still carries it.
void applyRecordingIssues(const TopLevelEntry& e, TraceMetadata& m, ImportIssues& issues) {
  std::vector<ImportIssue> recorded;
  if (!parseRecordingIssues(e.raw, &recorded)) {
    issues.add("bad_recording_issues", Severity::Info, e.offset,
               "gapscope_recording_issues is not a list of {name, severity, count, description}: ignored");
  }
  for (auto& issue : recorded) {
    issue.firstOffset = e.offset;
    issues.add(issue.name, issue.severity, issue.firstOffset, issue.description, issue.count);
  }
  m.otherKeys.emplace_back(e.key, e.raw);
}

}  // namespace

void applyTopLevelEntry(const TopLevelEntry& e, TraceMetadata& m, ImportIssues& issues) {
  if (e.key == "traceEvents") {
    issues.add("duplicate_trace_events", Severity::Warning, e.offset,
               "a second \"traceEvents\" member: its events are not read");
  } else if (e.skipped) {
    issues.add("top_level_value_skipped", Severity::Info, e.offset,
               "a top-level member larger than 1 MiB (e.g. systemTraceEvents) is not kept");
  } else if (e.key == "deviceProperties") {
    applyDeviceProperties(e, m, issues);
  } else if (e.key == "distributedInfo") {
    m.distributedInfoJson = e.raw;
  } else if (e.key == kRecordingIssuesKey) {
    applyRecordingIssues(e, m, issues);
  } else if (e.key == "baseTimeNanoseconds") {
    if (!parseInt64(e.raw, &m.baseTimeNanoseconds)) {
      issues.add("bad_base_time", Severity::Warning, e.offset, "baseTimeNanoseconds is not an integer: ignored");
    }
  } else if (e.key == "displayTimeUnit") {
    nlohmann::json j = nlohmann::json::parse(e.raw, nullptr, false);
    if (j.is_string() && (j == "ms" || j == "ns")) {
      m.displayTimeUnit = j.get<std::string>();
    } else {
      issues.add("bad_display_time_unit", Severity::Info, e.offset,
                 "displayTimeUnit is neither \"ms\" nor \"ns\": ignored");
    }
  } else {
    m.otherKeys.emplace_back(e.key, e.raw);
  }
}

}  // namespace gapscope::io
