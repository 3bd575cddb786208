#include "event_parser.h"

#include <simdjson.h>

#include <cstring>
#include <string_view>
#include <vector>

#include "decimal_time.h"
#include "json_text.h"

namespace gapscope::io {

namespace od = simdjson::ondemand;

namespace {

// A key as simdjson hands it: a pointer just past its opening quote.
// Compares against a literal including the closing quote, so "ts" does not
// match "tsx". Reading len+1 bytes is safe: the buffer is padded.
template <std::size_t N>
bool keyIs(const char* raw, const char (&lit)[N]) {
  return std::memcmp(raw, lit, N - 1) == 0 && raw[N - 1] == '"';
}

struct Scalar {
  enum class Kind : std::uint8_t { None, Number, String, Other };
  Kind kind = Kind::None;
  std::string_view text;  // number: its token; string: unescaped
};

struct ArgsFields {
  const char* begin = nullptr;
  const char* end = nullptr;
  std::int64_t correlation = kNoCorrelation;
  std::string_view inputDims;
  KernelInfo kernel;
  bool hasKernel = false;
  std::string_view metaName;
  bool hasMetaName = false;
  std::string_view labels;
  bool hasLabels = false;
  std::int64_t sortIndex = 0;
  bool hasSortIndex = false;
  // Top-level numeric members (raw key, token): the values of a C event.
  std::vector<std::pair<const char*, std::string_view>> numbers;
};

struct EventFields {
  std::uint64_t offset = 0;
  char ph = 0;
  bool hasPh = false;
  bool phSingleChar = false;
  std::string_view name;
  std::string_view cat;
  Scalar ts;
  Scalar dur;
  Scalar pid;
  Scalar tid;
  Scalar id;
  Scalar id2;
  bool id2Local = false;
  Scalar bindId;
  char scope = 't';
  bool bpEnclosing = false;
  bool flowIn = false;
  bool flowOut = false;
  bool hasArgs = false;
  bool argsNotObject = false;
  ArgsFields args;
};

std::string_view trimRight(std::string_view s) {
  while (!s.empty() && isJsonSpace(s.back())) s.remove_suffix(1);
  return s;
}

bool looksNumeric(std::string_view token) {
  return !token.empty() && (token[0] == '-' || (token[0] >= '0' && token[0] <= '9'));
}

// Eight bytes per step (names run to hundreds of bytes).
std::uint64_t wordHash(std::string_view s) {
  const char* p = s.data();
  std::size_t n = s.size();
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  while (n >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
    p += 8;
    n -= 8;
  }
  std::uint64_t w = 0;
  if (n) std::memcpy(&w, p, n);  // an empty view may have a null pointer
  h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
  return h ^ (h >> 29);
}

// Length and three 8-byte samples (start, middle, end): enough to tell
// names apart in a cache whose hits are verified by a full compare, and it
// does not read a 300-byte kernel name twice.
std::uint64_t sampleHash(std::string_view s) {
  const std::size_t n = s.size();
  if (n < 24) return wordHash(s);
  std::uint64_t a, b, c;
  std::memcpy(&a, s.data(), 8);
  std::memcpy(&b, s.data() + n / 2 - 4, 8);
  std::memcpy(&c, s.data() + n - 8, 8);
  std::uint64_t h = (a ^ 0x9E3779B97F4A7C15ull * n) * 0xFF51AFD7ED558CCDull;
  h = (h ^ (h >> 32) ^ b) * 0xC4CEB9FE1A85EC53ull;
  h = (h ^ (h >> 29) ^ c) * 0xFF51AFD7ED558CCDull;
  return h ^ (h >> 32);
}

// A trace has a few thousand distinct names and millions of events: a
// small direct-mapped cache in front of the builder's string table skips
// its hash-map walk for almost every name and category.
class InternCache {
 public:
  void reset() { ++generation_; }
  StringId get(TraceBuilder& builder, std::string_view text) {
    if (text.empty()) return kEmptyString;
    const std::uint64_t h = sampleHash(text);
    Entry& e = entries_[h & (kSize - 1)];
    if (e.hash == h && e.generation == generation_ && e.size == text.size() &&
        std::memcmp(e.stored, text.data(), text.size()) == 0) {
      return e.id;
    }
    const StringId id = builder.intern(text);
    // The string table never moves what it stored: the view stays valid.
    const std::string_view stored = builder.str(id);
    e = Entry{h, stored.data(), static_cast<std::uint32_t>(stored.size()), id, generation_};
    return id;
  }

 private:
  struct Entry {
    std::uint64_t hash = 0;
    const char* stored = nullptr;
    std::uint32_t size = 0;
    StringId id = kEmptyString;
    std::uint32_t generation = 0;
  };
  static constexpr std::size_t kSize = 2048;
  std::array<Entry, kSize> entries_{};
  std::uint32_t generation_ = 1;  // entries of an older builder never match
};

std::uint64_t hashText(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

struct EventParser::Impl {
  od::parser parser;
  InternCache names;
  // Per-chunk state.
  const char* buf = nullptr;
  std::uint64_t base = 0;
  ChunkOutput* out = nullptr;
  EventFields f;

  std::uint64_t offsetOf(const char* p) const { return base + static_cast<std::uint64_t>(p - buf); }
  TraceBuilder& builder() { return out->builder; }
  StringId intern(std::string_view text) { return names.get(out->builder, text); }
  void issue(const char* name, Severity sev, const char* what) {
    builder().issues().add(name, sev, f.offset, what);
  }

  // ---- reading values -------------------------------------------------

  simdjson::error_code readScalar(od::value& v, Scalar* s) {
    od::json_type type;
    if (auto e = v.type().get(type)) return e;
    if (type == od::json_type::number) {
      s->kind = Scalar::Kind::Number;
      s->text = trimRight(v.raw_json_token());
      return simdjson::SUCCESS;
    }
    if (type == od::json_type::string) {
      s->kind = Scalar::Kind::String;
      return v.get_string().get(s->text);
    }
    s->kind = Scalar::Kind::Other;
    return checkLiteral(v, type);
  }

  // On-demand does not look at tokens it is not asked for; a field we do
  // read must at least be a valid literal, or "ts": tru would pass.
  simdjson::error_code checkLiteral(od::value& v, od::json_type type) {
    if (type == od::json_type::boolean) {
      bool b;
      return v.get_bool().get(b);
    }
    if (type == od::json_type::null) {
      return trimRight(v.raw_json_token()) == "null" ? simdjson::SUCCESS : simdjson::N_ATOM_ERROR;
    }
    return simdjson::SUCCESS;
  }

  simdjson::error_code readText(od::value& v, std::string_view* out) {
    od::json_type type;
    if (auto e = v.type().get(type)) return e;
    if (type == od::json_type::string) return v.get_string().get(*out);
    if (type == od::json_type::number) {
      *out = trimRight(v.raw_json_token());
      return simdjson::SUCCESS;
    }
    *out = {};
    return checkLiteral(v, type);
  }

  simdjson::error_code readTriple(od::value& v, std::int32_t (&dst)[3]) {
    od::array arr;
    if (v.get_array().get(arr)) return simdjson::SUCCESS;  // not an array: ignored
    int i = 0;
    for (auto element : arr) {
      if (auto e = element.error()) return e;
      od::value& item = element.value_unsafe();
      std::int64_t n;
      if (i < 3 && !item.get_int64().get(n)) dst[i] = static_cast<std::int32_t>(n);
      ++i;
    }
    return simdjson::SUCCESS;
  }

  template <typename T>
  void readNumber(od::value& v, T* dst) {
    if constexpr (std::is_floating_point_v<T>) {
      double d;
      if (!v.get_double().get(d)) *dst = static_cast<T>(d);
    } else {
      std::int64_t n;
      if (!v.get_int64().get(n)) *dst = static_cast<T>(n);
    }
  }

  simdjson::error_code readArgs(od::value& v) {
    ArgsFields& a = f.args;
    od::json_type type;
    if (auto e = v.type().get(type)) return e;
    if (type != od::json_type::object) {
      f.argsNotObject = true;
      return simdjson::SUCCESS;
    }
    a.begin = v.raw_json_token().data();
    od::object obj;
    if (auto e = v.get_object().get(obj)) return e;
    for (auto member : obj) {
      if (auto e = member.error()) return e;
      // By reference: copying simdjson's field and value structs stalls
      // on store forwarding (measured: half the time of this loop).
      od::field& fld = member.value_unsafe();
      const char* k = fld.key().raw();
      od::value& val = fld.value();
      if (auto e = readArgsMember(k, val)) return e;
    }
    // The iterator now sits on the token after the closing '}'.
    const char* after = nullptr;
    if (v.current_location().get(after)) after = buf;  // at the very end: cannot happen inside an event
    const char* end = after;
    while (end > a.begin && end[-1] != '}') --end;
    a.end = end;
    f.hasArgs = true;
    return simdjson::SUCCESS;
  }

  simdjson::error_code readArgsMember(const char* k, od::value& val) {
    ArgsFields& a = f.args;
    switch (k[0]) {
      case 'c':
        if (keyIs(k, "correlation")) {
          readNumber(val, &a.correlation);
          return simdjson::SUCCESS;
        }
        break;
      case 'I':
        if (keyIs(k, "Input Dims")) {
          od::array arr;
          if (!val.get_array().get(arr)) return arr.raw_json().get(a.inputDims);
          return simdjson::SUCCESS;
        }
        break;
      case 'g':
        if (keyIs(k, "grid")) {
          a.hasKernel = true;
          return readTriple(val, a.kernel.grid);
        }
        break;
      case 'b':
        if (keyIs(k, "block")) {
          a.hasKernel = true;
          return readTriple(val, a.kernel.block);
        }
        if (keyIs(k, "blocks per SM")) {
          readNumber(val, &a.kernel.blocksPerSm);
          return simdjson::SUCCESS;
        }
        break;
      case 'r':
        if (keyIs(k, "registers per thread")) {
          a.hasKernel = true;
          readNumber(val, &a.kernel.registersPerThread);
          return simdjson::SUCCESS;
        }
        break;
      case 's':
        if (keyIs(k, "shared memory")) {
          readNumber(val, &a.kernel.sharedMemory);
          return simdjson::SUCCESS;
        }
        if (keyIs(k, "stream")) {
          readNumber(val, &a.kernel.stream);
          return simdjson::SUCCESS;
        }
        if (keyIs(k, "sort_index")) {
          a.hasSortIndex = true;
          readNumber(val, &a.sortIndex);
          return simdjson::SUCCESS;
        }
        break;
      case 'w':
        if (keyIs(k, "warps per SM")) {
          readNumber(val, &a.kernel.warpsPerSm);
          return simdjson::SUCCESS;
        }
        break;
      case 'e':
        if (keyIs(k, "est. achieved occupancy %")) {
          readNumber(val, &a.kernel.occupancyPct);
          return simdjson::SUCCESS;
        }
        break;
      case 'd':
        if (keyIs(k, "device")) {
          readNumber(val, &a.kernel.device);
          return simdjson::SUCCESS;
        }
        break;
      case 'n':
        if (keyIs(k, "name")) {
          a.hasMetaName = true;
          return readText(val, &a.metaName);
        }
        break;
      case 'l':
        if (keyIs(k, "labels")) {
          a.hasLabels = true;
          return readText(val, &a.labels);
        }
        break;
      default:
        break;
    }
    // Any other numeric member may be a counter value (C events; when ph
    // comes after args we cannot know yet).
    if (f.hasPh && f.ph != 'C') return simdjson::SUCCESS;
    std::string_view token = val.raw_json_token();
    if (looksNumeric(token) && a.numbers.size() < 256) a.numbers.emplace_back(k, trimRight(token));
    return simdjson::SUCCESS;
  }

  simdjson::error_code readId2(od::value& v) {
    od::object obj;
    if (v.get_object().get(obj)) return simdjson::SUCCESS;  // not an object: ignored
    for (auto member : obj) {
      if (auto e = member.error()) return e;
      // By reference: copying simdjson's field and value structs stalls
      // on store forwarding (measured: half the time of this loop).
      od::field& fld = member.value_unsafe();
      const char* k = fld.key().raw();
      od::value& val = fld.value();
      if (keyIs(k, "local") || keyIs(k, "global")) {
        f.id2Local = k[0] == 'l';
        if (auto e = readScalar(val, &f.id2)) return e;
      }
    }
    return simdjson::SUCCESS;
  }

  simdjson::error_code readBool(od::value& v, bool* out) {
    bool b;
    if (!v.get_bool().get(b)) *out = b;
    return simdjson::SUCCESS;
  }

  simdjson::error_code readField(const char* k, od::value& v) {
    switch (k[0]) {
      case 'p':
        if (keyIs(k, "ph")) {
          f.hasPh = true;
          od::raw_json_string raw;
          if (v.get_raw_json_string().get(raw)) return simdjson::SUCCESS;  // not a string
          const char* r = raw.raw();
          f.ph = r[0];
          f.phSingleChar = r[0] != '"' && r[0] != '\\' && r[1] == '"';
          return simdjson::SUCCESS;
        }
        if (keyIs(k, "pid")) return readScalar(v, &f.pid);
        break;
      case 'n':
        if (keyIs(k, "name")) return readText(v, &f.name);
        break;
      case 'c':
        if (keyIs(k, "cat")) return readText(v, &f.cat);
        break;
      case 't':
        if (keyIs(k, "ts")) return readScalar(v, &f.ts);
        if (keyIs(k, "tid")) return readScalar(v, &f.tid);
        break;
      case 'd':
        if (keyIs(k, "dur")) return readScalar(v, &f.dur);
        break;
      case 'a':
        if (keyIs(k, "args")) return readArgs(v);
        break;
      case 'i':
        if (keyIs(k, "id")) return readScalar(v, &f.id);
        if (keyIs(k, "id2")) return readId2(v);
        break;
      case 's':
        if (keyIs(k, "s")) {
          std::string_view s;
          if (!v.get_string().get(s) && s.size() == 1) f.scope = s[0];
          return simdjson::SUCCESS;
        }
        break;
      case 'b':
        if (keyIs(k, "bp")) {
          std::string_view s;
          if (!v.get_string().get(s)) f.bpEnclosing = s == "e";
          return simdjson::SUCCESS;
        }
        if (keyIs(k, "bind_id")) return readScalar(v, &f.bindId);
        break;
      case 'f':
        if (keyIs(k, "flow_in")) return readBool(v, &f.flowIn);
        if (keyIs(k, "flow_out")) return readBool(v, &f.flowOut);
        break;
      default:
        break;
    }
    return simdjson::SUCCESS;
  }

  // ---- turning fields into model events ---------------------------------

  ChromeId chromeId(const Scalar& s) {
    if (s.kind == Scalar::Kind::Number) {
      std::int64_t n;
      if (parseInt64(s.text, &n)) return builder().numericId(n);
      return builder().stringId(s.text);  // 1.5 or 1e3: keep the text as written
    }
    if (s.kind == Scalar::Kind::String) return builder().stringId(s.text);
    return builder().numericId(0);
  }

  bool time(const Scalar& s, TimeNs* out, const char* missingName, const char* invalidName,
            const char* what) {
    if (s.kind == Scalar::Kind::None) {
      issue(missingName, Severity::Warning, what);
      return false;
    }
    if ((s.kind == Scalar::Kind::Number || s.kind == Scalar::Kind::String) && parseMicrosAsNanos(s.text, out)) {
      if (s.kind == Scalar::Kind::String) {
        issue("time_as_string", Severity::Info, "ts or dur written as a string holding a number: read as the number");
      }
      return true;
    }
    issue(invalidName, Severity::Warning, what);
    return false;
  }

  bool timestamp(TimeNs* ts) {
    return time(f.ts, ts, "missing_timestamp", "invalid_timestamp",
                "event without a numeric ts (microseconds): dropped");
  }

  std::uint64_t numericFlowId(const Scalar& s, bool local) {
    std::uint64_t v;
    if (!local && parseUnsignedId(s.text, &v)) return v;
    if (!local) return hashText(s.text);
    // id2.local is only unique inside its process.
    return hashText("local:" + std::string(f.pid.text) + ":" + std::string(s.text));
  }

  ArgsRef argsRef() {
    if (!f.hasArgs) return {};
    const std::size_t len = static_cast<std::size_t>(f.args.end - f.args.begin);
    if (len > 0xFFFFFFFFu) {
      issue("args_too_large", Severity::Warning, "args larger than 4 GiB cannot be shown");
      return {};
    }
    ArgsRef ref;
    ref.length = static_cast<std::uint32_t>(len);
    if (out->storage == ArgsStorage::SourceOffsets) {
      ref.offset = offsetOf(f.args.begin);
    } else {
      ref.offset = (static_cast<std::uint64_t>(out->arenaId) << kArenaShift) | out->arena.size();
      out->arena.append(f.args.begin, len);
    }
    return ref;
  }

  void requireThread() {
    if (f.pid.kind == Scalar::Kind::None) issue("missing_pid", Severity::Info, "event without pid: pid 0 assumed");
    if (f.tid.kind == Scalar::Kind::None) issue("missing_tid", Severity::Info, "event without tid: tid 0 assumed");
  }

  void emitSlice(bool complete) {
    SliceEvent e;
    if (!timestamp(&e.start)) return;
    requireThread();
    e.pid = chromeId(f.pid);
    e.tid = chromeId(f.tid);
    if (complete) {
      if (f.dur.kind == Scalar::Kind::None) {
        issue("missing_duration", Severity::Warning, "X event without dur: kept with duration 0");
      } else if (!time(f.dur, &e.dur, "missing_duration", "invalid_duration",
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
    ++out->slices;
  }

  void emitEnd() {
    TimeNs ts;
    if (!timestamp(&ts)) return;
    requireThread();
    builder().addEnd(chromeId(f.pid), chromeId(f.tid), ts, f.offset);
  }

  void emitInstant() {
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

  std::string counterSeriesName(const char* rawKey) {
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
    if (!(f.args.numbers.size() == 1 && key == "value")) series.append(" ").append(key);
    return series;
  }

  void emitCounter() {
    TimeNs ts;
    if (!timestamp(&ts)) return;
    if (f.args.numbers.empty()) {
      issue("counter_without_values", Severity::Info, "C event without numeric args: nothing to plot");
      builder().noteTime(ts);
      return;
    }
    ChromeId pid = chromeId(f.pid);
    for (const auto& [rawKey, token] : f.args.numbers) {
      // Counter values are plotted, not used as time: double is fine here.
      double value = std::strtod(std::string(token).c_str(), nullptr);
      builder().addCounter(pid, builder().intern(counterSeriesName(rawKey)), ts, value, f.offset);
    }
  }

  void emitFlow() {
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
    ++out->flowEvents;
  }

  void emitAsync() {
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

  void emitMetadata() {
    TimeNs ts;
    if (f.ts.kind != Scalar::Kind::None && parseMicrosAsNanos(f.ts.text, &ts)) builder().noteTime(ts);
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

  void dropUnknown() {
    TimeNs ts;
    if (f.ts.kind != Scalar::Kind::None && parseMicrosAsNanos(f.ts.text, &ts)) builder().noteTime(ts);
    out->unknownPhases.add(static_cast<unsigned char>(f.phSingleChar ? f.ph : '?'), f.offset);
  }

  void emit() {
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

  simdjson::error_code readEvent(od::value& element) {
    const char* start = element.raw_json_token().data();
    od::object obj;
    if (auto e = element.get_object().get(obj)) {
      if (e != simdjson::INCORRECT_TYPE) return e;
      // A number or string in the events array: not an event. The array
      // iteration skips it.
      builder().issues().add("event_not_object", Severity::Warning, offsetOf(start),
                             "an element of traceEvents is not a JSON object: dropped");
      return simdjson::SUCCESS;
    }
    f.args.numbers.clear();
    std::vector<std::pair<const char*, std::string_view>> numbers = std::move(f.args.numbers);
    f = EventFields{};
    f.args.numbers = std::move(numbers);
    f.offset = offsetOf(start);
    for (auto member : obj) {
      if (auto e = member.error()) return e;
      // By reference: copying simdjson's field and value structs stalls
      // on store forwarding (measured: half the time of this loop).
      od::field& fld = member.value_unsafe();
      const char* k = fld.key().raw();
      od::value& v = fld.value();
      if (auto e = readField(k, v)) return e;
    }
    emit();
    return simdjson::SUCCESS;
  }

  FastParse run(const char* data, std::size_t len, std::size_t capacity, std::uint64_t offsetBase,
                ChunkOutput& o) {
    buf = data;
    base = offsetBase;
    names.reset();  // ids of another builder must never be returned
    out = &o;
    FastParse result;
    od::document doc;
    auto fail = [&](simdjson::error_code e) {
      result.ok = false;
      result.error = simdjson::error_message(e);
      return result;
    };
    if (auto e = parser.iterate(simdjson::padded_string_view(data, len, capacity)).get(doc)) return fail(e);
    od::array events;
    if (auto e = doc.get_array().get(events)) return fail(e);
    for (auto element : events) {
      if (auto e = element.error()) return fail(e);
      od::value& v = element.value_unsafe();
      ++o.events;
      if (auto e = readEvent(v)) {
        --o.events;
        return fail(e);
      }
    }
    const char* next = nullptr;
    std::size_t close;
    if (doc.current_location().get(next)) {
      close = len;  // nothing follows the array
    } else {
      close = static_cast<std::size_t>(next - data);
    }
    while (close > 0 && data[close - 1] != ']') --close;
    result.ok = close > 0;
    result.closeIndex = close - 1;
    return result;
  }
};

EventParser::EventParser() : impl_(std::make_unique<Impl>()) {}
EventParser::~EventParser() = default;

FastParse EventParser::parse(const char* buf, std::size_t len, std::size_t capacity, std::uint64_t base,
                             ChunkOutput& out) {
  return impl_->run(buf, len, capacity, base, out);
}

}  // namespace gapscope::io
