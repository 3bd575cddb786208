#include "top_level.h"

#include <nlohmann/json.hpp>

#include "decimal_time.h"
#include "json_text.h"

namespace gapscope::io {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
// Unknown top-level members bigger than this are not kept (e.g. Chrome's
// "systemTraceEvents", a whole ftrace dump in one string).
constexpr std::size_t kMaxKeptRawValue = 1 << 20;

std::string describeTopLevelValue(char c) {
  if (c == '"') return "a JSON string";
  if (c == '-' || (c >= '0' && c <= '9')) return "a JSON number";
  if (c == 't' || c == 'f') return "a JSON boolean";
  if (c == 'n') return "JSON null";
  return {};
}

class Walker {
 public:
  Walker(std::string_view text, bool eof, std::uint64_t base) : t_(text), eof_(eof), base_(base) {}

  TopLevelStep run(TopLevelMode mode) {
    if (mode == TopLevelMode::Start) return start();
    if (mode == TopLevelMode::AfterBareArray) return finishAfterTopValue(0);
    return objectMembers(0, /*afterMember=*/true, /*sawEvents=*/true);
  }

 private:
  TopLevelStep start() {
    std::size_t p = 0;
    if (t_.substr(0, 3) == kBom) p = 3;
    p = skipSpaces(t_, p);
    if (p >= t_.size()) {
      if (!eof_) return needMore();
      if (t_.empty()) {
        step_.positioned = false;
        return error(0, "the file is empty");
      }
      return error(p, "the file contains only white space");
    }
    char c = t_[p];
    if (c == '[') {
      TopLevelStep s;
      s.status = TopLevelStep::Status::EventsStart;
      s.pos = p + 1;
      s.bareArray = true;
      return s;
    }
    if (c == '{') return objectMembers(p + 1, /*afterMember=*/false, /*sawEvents=*/false);
    std::string kind = describeTopLevelValue(c);
    if (!kind.empty()) {
      return error(p, "the file holds " + kind +
                          ", not a trace: expected an object with \"traceEvents\" or an array of events");
    }
    return error(p, "not a JSON trace: expected '{' or '[', " + describeFound(t_, p));
  }

  // Walks "key": value pairs. `afterMember`: a member was just read, so ','
  // or '}' comes next.
  TopLevelStep objectMembers(std::size_t p, bool afterMember, bool sawEvents) {
    bool first = !afterMember;
    while (true) {
      p = skipSpaces(t_, p);
      if (p >= t_.size()) return endOfText();
      if (afterMember) {
        if (t_[p] == '}') return finishAfterTopValue(p + 1, sawEvents);
        if (t_[p] != ',') return error(p, "expected ',' or '}' after a top-level member, " + describeFound(t_, p));
        p = skipSpaces(t_, p + 1);
        if (p >= t_.size()) return endOfText();
      } else if (first && t_[p] == '}') {
        return finishAfterTopValue(p + 1, sawEvents);
      }
      first = false;
      if (t_[p] != '"') return error(p, "expected '\"' to start an object key, " + describeFound(t_, p));
      std::size_t keyPos = p;
      JsonCheck keyCheck = checkJsonValue(t_, p);
      if (keyCheck.status == JsonCheck::Status::EndOfInput) return endOfText();
      if (keyCheck.status == JsonCheck::Status::Error) return error(keyCheck.pos, keyCheck.message);
      std::string key;
      unescapeJsonString(t_.substr(p + 1, keyCheck.pos - p - 2), &key);
      p = skipSpaces(t_, keyCheck.pos);
      if (p >= t_.size()) return endOfText();
      if (t_[p] != ':') return error(p, "expected ':' after an object key, " + describeFound(t_, p));
      p = skipSpaces(t_, p + 1);
      if (p >= t_.size()) return endOfText();
      if (key == "traceEvents" && !sawEvents) {
        if (t_[p] != '[') return error(p, "\"traceEvents\" must be an array, " + describeFound(t_, p));
        step_.status = TopLevelStep::Status::EventsStart;
        step_.pos = p + 1;
        return std::move(step_);
      }
      JsonCheck value = checkJsonValue(t_, p);
      if (value.status == JsonCheck::Status::EndOfInput) return endOfText();
      if (value.status == JsonCheck::Status::Error) return error(value.pos, value.message);
      step_.entries.push_back({std::move(key), std::string(t_.substr(p, value.pos - p)), base_ + keyPos});
      p = value.pos;
      afterMember = true;
    }
  }

  TopLevelStep finishAfterTopValue(std::size_t p, bool sawEvents = true) {
    if (!sawEvents) return error(p - 1, "the top-level object has no \"traceEvents\" array");
    p = skipSpaces(t_, p);
    // Some writers pad files with NUL bytes; they carry nothing.
    while (p < t_.size() && (t_[p] == '\0' || isJsonSpace(t_[p]))) ++p;
    if (p < t_.size()) return error(p, "unexpected content after the end of the trace, " + describeFound(t_, p));
    if (!eof_) return needMore();
    step_.status = TopLevelStep::Status::Finished;
    step_.pos = p;
    return std::move(step_);
  }

  TopLevelStep endOfText() {
    if (!eof_) return needMore();
    step_.status = TopLevelStep::Status::Truncated;
    step_.pos = t_.size();
    return std::move(step_);
  }
  TopLevelStep needMore() {
    step_.status = TopLevelStep::Status::NeedMore;
    return std::move(step_);
  }
  TopLevelStep error(std::size_t pos, std::string message) {
    step_.status = TopLevelStep::Status::Error;
    step_.pos = pos;
    step_.message = std::move(message);
    return std::move(step_);
  }

  std::string_view t_;
  bool eof_;
  std::uint64_t base_;
  TopLevelStep step_;
};

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

TopLevelStep walkTopLevel(std::string_view text, TopLevelMode mode, bool eof, std::uint64_t base) {
  return Walker(text, eof, base).run(mode);
}

void applyTopLevelEntry(const TopLevelEntry& e, TraceMetadata& m, ImportIssues& issues) {
  if (e.key == "deviceProperties") {
    applyDeviceProperties(e, m, issues);
  } else if (e.key == "distributedInfo") {
    m.distributedInfoJson = e.raw;
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
  } else if (e.key == "traceEvents") {
    issues.add("duplicate_trace_events", Severity::Warning, e.offset,
               "a second \"traceEvents\" member: its events are not read");
  } else if (e.raw.size() > kMaxKeptRawValue) {
    issues.add("top_level_value_skipped", Severity::Info, e.offset,
               "a top-level member larger than 1 MiB (e.g. systemTraceEvents) is not kept");
  } else {
    m.otherKeys.emplace_back(e.key, e.raw);
  }
}

}  // namespace gapscope::io
