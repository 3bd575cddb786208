#include "event_parser.h"

#include <simdjson.h>

#include <cstring>
#include <string_view>
#include <vector>

#include "event_emit.h"
#include "event_fields.h"
#include "json_text.h"
#include "name_cache.h"

namespace gapscope::io {

namespace od = simdjson::ondemand;

namespace {

// A key as simdjson hands it: a pointer just past its opening quote. The
// byte after the literal must be the closing quote, so "ts" does not match
// "tsx". Reading len+1 bytes is safe: the buffer is padded.
template <std::size_t N>
bool keyIs(const char* raw, const char (&lit)[N]) {
  return std::memcmp(raw, lit, N - 1) == 0 && raw[N - 1] == '"';
}

std::string_view trimRight(std::string_view s) {
  while (!s.empty() && isJsonSpace(s.back())) s.remove_suffix(1);
  return s;
}

bool looksNumeric(std::string_view token) {
  return !token.empty() && (token[0] == '-' || (token[0] >= '0' && token[0] <= '9'));
}

}  // namespace

struct EventParser::Impl {
  od::parser parser;
  NameCache names;
  // Per-chunk state.
  const char* buf = nullptr;
  std::uint64_t base = 0;
  ChunkOutput* out = nullptr;
  EventFields f;
  ArgNumbers numbers;  // f's args' numeric members

  std::uint64_t offsetOf(const char* p) const { return base + static_cast<std::uint64_t>(p - buf); }
  TraceBuilder& builder() { return out->builder; }

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
    if (type == od::json_type::string) {
      // Most names have nothing to unescape: their text is taken where it
      // lies, without simdjson's copy (stage 1 has checked it already).
      const std::string_view token = trimRight(v.raw_json_token());
      if (token.size() >= 2 && token.back() == '"' &&
          std::memchr(token.data() + 1, '\\', token.size() - 2) == nullptr) {
        *out = token.substr(1, token.size() - 2);
        return simdjson::SUCCESS;
      }
      return v.get_string().get(*out);
    }
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
    if (looksNumeric(token) && numbers.size() < 256) numbers.emplace_back(k, trimRight(token));
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
    static constexpr EventFields kFresh{};
    f = kFresh;
    numbers.clear();
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
    EventEmitter(f, numbers, *out, names, buf, base).emit();
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
