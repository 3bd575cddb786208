#include "event_emit.h"

#include <cstdlib>
#include <string>

#include "decimal_time.h"
#include "gapscope/model/time_limits.h"
#include "json_text.h"

namespace gapscope::io {

ChromeId EventEmitter::chromeId(const Scalar& s) {
  return names_.id(static_cast<std::uint8_t>(s.kind), s.text, [&] { return convertedId(s); });
}

ChromeId EventEmitter::convertedId(const Scalar& s) {
  if (s.kind == Scalar::Kind::Number) {
    std::int64_t n;
    if (parseInt64(s.text, &n)) return builder().numericId(n);
    return builder().stringId(s.text);  // 1.5 or 1e3: keep the text as written
  }
  if (s.kind == Scalar::Kind::String) {
    // "25738" and 25738 name one thread, as in chrome://tracing (ids are
    // object keys there): 2021-era Kineto wrote a thread's X events with the
    // string and its flow events with the number. Only the canonical decimal
    // text converts ("007" stays a label).
    std::int64_t n;
    if (parseInt64(s.text, &n) && std::to_string(n) == s.text) return builder().numericId(n);
    return builder().stringId(s.text);
  }
  return builder().numericId(0);
}

bool EventEmitter::inRange(TimeNs t, const Scalar& s, const char* field) {
  if (isTimeInRange(t)) return true;
  const bool ts = std::string_view(field) == "ts";
  std::string what = std::string(field) + " " + std::string(s.text.substr(0, 40)) + " us of the event \"" +
                     std::string(f.name.substr(0, 80)) +
                     "\" is beyond +-3e15 us (about 95 years from the epoch), which gapscope cannot add or subtract "
                     "without overflow: " +
                     (ts ? "event dropped" : "kept with duration 0");
  builder().issues().add(ts ? "timestamp_out_of_range" : "duration_out_of_range", Severity::Warning, f.offset, what);
  return false;
}

bool EventEmitter::time(const Scalar& s, TimeNs* out, const char* field, const char* missingName,
                        const char* invalidName, const char* what) {
  if (s.kind == Scalar::Kind::None) {
    issue(missingName, Severity::Warning, what);
    return false;
  }
  if ((s.kind == Scalar::Kind::Number || s.kind == Scalar::Kind::String) && parseMicrosAsNanos(s.text, out)) {
    if (!inRange(*out, s, field)) return false;
    if (s.kind == Scalar::Kind::String) {
      issue("time_as_string", Severity::Info, "ts or dur written as a string holding a number: read as the number");
    }
    return true;
  }
  issue(invalidName, Severity::Warning, what);
  return false;
}

bool EventEmitter::timestamp(TimeNs* ts) {
  return time(f.ts, ts, "ts", "missing_timestamp", "invalid_timestamp",
              "event without a numeric ts (microseconds): dropped");
}

std::uint64_t EventEmitter::numericFlowId(const Scalar& s, bool local) {
  std::uint64_t v;
  if (!local && parseUnsignedId(s.text, &v)) return v;
  if (!local) return hashText(s.text);
  // id2.local is only unique inside its process.
  return hashText("local:" + std::string(f.pid.text) + ":" + std::string(s.text));
}

ArgsRef EventEmitter::argsRef() {
  if (!f.hasArgs) return {};
  const std::size_t len = static_cast<std::size_t>(f.args.end - f.args.begin);
  if (len > 0xFFFFFFFFu) {
    issue("args_too_large", Severity::Warning, "args larger than 4 GiB cannot be shown");
    return {};
  }
  ArgsRef ref;
  ref.length = static_cast<std::uint32_t>(len);
  if (out_.storage == ArgsStorage::SourceOffsets) {
    ref.offset = offsetOf(f.args.begin);
  } else {
    ref.offset = (static_cast<std::uint64_t>(out_.arenaId) << kArenaShift) | out_.arena.size();
    out_.arena.append(f.args.begin, len);
  }
  return ref;
}

void EventEmitter::requireThread() {
  if (f.pid.kind == Scalar::Kind::None) issue("missing_pid", Severity::Info, "event without pid: pid 0 assumed");
  if (f.tid.kind == Scalar::Kind::None) issue("missing_tid", Severity::Info, "event without tid: tid 0 assumed");
}

void EventEmitter::emitSlice(bool complete) {
  SliceEvent e;
  if (!timestamp(&e.start)) return;
  requireThread();
  e.pid = chromeId(f.pid);
  e.tid = chromeId(f.tid);
  if (complete) {
    if (f.dur.kind == Scalar::Kind::None) {
      issue("missing_duration", Severity::Warning, "X event without dur: kept with duration 0");
    } else if (!time(f.dur, &e.dur, "dur", "missing_duration", "invalid_duration",
                     "X event with a dur that is not a number: kept with duration 0")) {
      e.dur = 0;
    }
  }
  e.name = intern(f.name);
  e.category = intern(f.cat);
  e.correlation = f.args.correlation;
  e.args = argsRef();
  if (!f.args.inputDims.empty()) e.shapes = intern(f.args.inputDims);
  if (f.args.hasKernel) e.kernel = f.args.kernel;
  if (f.bindId.kind == Scalar::Kind::Number || f.bindId.kind == Scalar::Kind::String) {
    e.hasBindId = true;
    e.bindId = numericFlowId(f.bindId, false);
    e.flowIn = f.flowIn;
    e.flowOut = f.flowOut;
  }
  e.offset = f.offset;
  if (complete) builder().addComplete(e);
  else builder().addBegin(e);
  ++out_.slices;
}

void EventEmitter::emitEnd() {
  TimeNs ts;
  if (!timestamp(&ts)) return;
  requireThread();
  builder().addEnd(chromeId(f.pid), chromeId(f.tid), ts, f.offset);
}

void EventEmitter::emitInstant() {
  InstantEvent e;
  if (!timestamp(&e.ts)) return;
  e.scope = (f.scope == 'g' || f.scope == 'p') ? f.scope : 't';
  if (e.scope == 't') requireThread();
  e.pid = chromeId(f.pid);
  e.tid = chromeId(f.tid);
  e.name = intern(f.name);
  e.category = intern(f.cat);
  e.args = argsRef();
  e.offset = f.offset;
  builder().addInstant(e);
}

std::string EventEmitter::counterSeriesName(const char* rawKey) {
  const char* close = rawKey;
  while (*close != '"') close += (*close == '\\') ? 2 : 1;
  std::string key;
  if (!unescapeJsonString(std::string_view(rawKey, static_cast<std::size_t>(close - rawKey)), &key)) {
    key.assign(rawKey, close);
  }
  std::string series(f.name);
  if (f.id.kind != Scalar::Kind::None) series.append(" ").append(f.id.text);
  // Chrome shows one counter track per name with one series per key; a
  // lone "value" key is the counter itself.
  if (!(numbers_.size() == 1 && key == "value")) series.append(" ").append(key);
  return series;
}

void EventEmitter::emitCounter() {
  TimeNs ts;
  if (!timestamp(&ts)) return;
  if (numbers_.empty()) {
    issue("counter_without_values", Severity::Info, "C event without numeric args: nothing to plot");
    builder().noteTime(ts);
    return;
  }
  ChromeId pid = chromeId(f.pid);
  for (const auto& [rawKey, token] : numbers_) {
    // Counter values are plotted, not used as time: double is fine here.
    double value = std::strtod(std::string(token).c_str(), nullptr);
    builder().addCounter(pid, builder().intern(counterSeriesName(rawKey)), ts, value, f.offset);
  }
}

void EventEmitter::emitFlow() {
  FlowEvent e;
  if (!timestamp(&e.ts)) return;
  const Scalar& id = f.id.kind != Scalar::Kind::None ? f.id : f.id2;
  if (id.kind != Scalar::Kind::Number && id.kind != Scalar::Kind::String) {
    issue("flow_missing_id", Severity::Warning, "flow event (s/t/f) without an id: dropped");
    builder().noteTime(e.ts);
    return;
  }
  requireThread();
  e.phase = f.ph;
  e.pid = chromeId(f.pid);
  e.tid = chromeId(f.tid);
  e.name = intern(f.name);
  e.category = intern(f.cat);
  e.id = numericFlowId(id, &id == &f.id2 && f.id2Local);
  e.bindEnclosing = f.bpEnclosing;
  e.offset = f.offset;
  builder().addFlow(e);
  ++out_.flowEvents;
}

void EventEmitter::emitAsync() {
  AsyncEvent e;
  if (!timestamp(&e.ts)) return;
  const bool useId2 = f.id.kind == Scalar::Kind::None;
  const Scalar& id = useId2 ? f.id2 : f.id;
  if (id.kind != Scalar::Kind::Number && id.kind != Scalar::Kind::String) {
    issue("async_missing_id", Severity::Warning, "async event (b/e/n) without an id: dropped");
    builder().noteTime(e.ts);
    return;
  }
  e.phase = f.ph;
  e.pid = chromeId(f.pid);
  e.tid = chromeId(f.tid);
  e.name = intern(f.name);
  e.category = intern(f.cat);
  if (useId2 && f.id2Local) {
    // id2.local is only unique inside its process.
    e.id = "local:" + std::string(f.pid.text) + ":" + std::string(id.text);
  } else {
    e.id = std::string(id.text);
  }
  e.args = argsRef();
  e.offset = f.offset;
  builder().addAsync(std::move(e));
}

void EventEmitter::emitMetadata() {
  // A metadata event's ts means nothing (many writers put 0 there): it
  // names a process or thread and is no part of the trace's time range.
  const std::string_view name = f.name;
  const bool process = name.rfind("process_", 0) == 0;
  ChromeId pid = chromeId(f.pid);
  if (name == "process_name" || name == "thread_name" || name == "process_labels") {
    std::string_view text = name == "process_labels" ? f.args.labels : f.args.metaName;
    bool has = name == "process_labels" ? f.args.hasLabels : f.args.hasMetaName;
    if (!has) {
      issue("metadata_missing_value", Severity::Info, "M event without its args value: ignored");
      return;
    }
    if (name == "process_name") builder().setProcessName(pid, text);
    else if (name == "process_labels") builder().setProcessLabels(pid, text);
    else builder().setThreadName(pid, chromeId(f.tid), text);
    return;
  }
  if (name == "process_sort_index" || name == "thread_sort_index") {
    if (!f.args.hasSortIndex) {
      issue("metadata_missing_value", Severity::Info, "M event without its args value: ignored");
      return;
    }
    if (process) builder().setProcessSortIndex(pid, f.args.sortIndex);
    else builder().setThreadSortIndex(pid, chromeId(f.tid), f.args.sortIndex);
    return;
  }
  issue("unknown_metadata", Severity::Info,
        "M event with a name gapscope does not use (e.g. process_uptime_seconds): ignored");
}

void EventEmitter::dropUnknown() {
  TimeNs ts;
  if (f.ts.kind != Scalar::Kind::None && parseMicrosAsNanos(f.ts.text, &ts) && isTimeInRange(ts)) builder().noteTime(ts);
  out_.unknownPhases.add(static_cast<unsigned char>(f.phSingleChar ? f.ph : '?'), f.offset);
}

void EventEmitter::emit() {
  if (!f.hasPh) {
    issue("missing_phase", Severity::Warning, "event without ph: dropped");
    return;
  }
  if (!f.phSingleChar) {
    dropUnknown();
    return;
  }
  if (f.argsNotObject) issue("args_not_object", Severity::Info, "args is not a JSON object: not kept");
  switch (f.ph) {
    case 'X': emitSlice(true); break;
    case 'B': emitSlice(false); break;
    case 'E': emitEnd(); break;
    case 'i':
    case 'I': emitInstant(); break;
    case 'C': emitCounter(); break;
    case 's':
    case 't':
    case 'f': emitFlow(); break;
    case 'b':
    case 'e':
    case 'n': emitAsync(); break;
    case 'M': emitMetadata(); break;
    default: dropUnknown(); break;
  }
}

}  // namespace gapscope::io
