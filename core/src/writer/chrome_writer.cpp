// The Chrome trace writer. Event order: process and thread metadata, then
// every track's slices (X, or b/e for async slices), flows (s/f, bound to
// their slices' start times), instants and counter samples. Args are written
// as the text the trace holds (what the source file or the recorder wrote);
// slices without args text get the fields the model knows (correlation,
// launch configuration, input dims).
#include "gapscope/writer/chrome_writer.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>
#include <set>

#include "gapscope/model/event_args.h"
#include "output_file.h"

namespace gapscope::writer {

std::string formatMicros(TimeNs ns) {
  // Negative values: sign, then the magnitude, so -500 ns is "-0.500".
  bool negative = ns < 0;
  std::uint64_t mag = negative ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
  char buf[32];
  char* p = buf;
  if (negative) *p++ = '-';
  p = std::to_chars(p, buf + sizeof buf, mag / 1000).ptr;
  unsigned frac = static_cast<unsigned>(mag % 1000);
  *p++ = '.';
  *p++ = static_cast<char>('0' + frac / 100);
  *p++ = static_cast<char>('0' + frac / 10 % 10);
  *p++ = static_cast<char>('0' + frac % 10);
  return std::string(buf, p);
}

namespace {

constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

class JsonWriter {
 public:
  JsonWriter(const Trace& t, detail::Sink& sink) : t_(t), args_(t), sink_(sink) { buf_.reserve(kFlushBytes + 4096); }

  bool write() {
    raw("{\n");
    topLevelKeys();
    raw("  \"traceEvents\": [");
    processMetadata();
    threadMetadata();
    for (std::uint32_t i = 0; i < t_.tracks.size(); ++i) trackSlices(i);
    flows();
    instants();
    counters();
    raw("\n  ]\n}\n");
    flush();
    return sink_.error().empty();
  }

  std::uint64_t bytes() const { return written_; }

 private:
  // --- output primitives
  void raw(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= kFlushBytes) flush();
  }
  void flush() {
    written_ += buf_.size();
    sink_.write(buf_);
    buf_.clear();
  }
  void str(std::string_view s) {
    buf_ += '"';
    for (char c : s) {
      auto u = static_cast<unsigned char>(c);
      if (c == '"' || c == '\\') {
        buf_ += '\\';
        buf_ += c;
      } else if (u < 0x20) {
        static const char* hex = "0123456789abcdef";
        switch (c) {
          case '\n': buf_ += "\\n"; break;
          case '\t': buf_ += "\\t"; break;
          case '\r': buf_ += "\\r"; break;
          default:
            buf_ += "\\u00";
            buf_ += hex[u >> 4];
            buf_ += hex[u & 15];
        }
      } else {
        buf_ += c;
      }
    }
    buf_ += '"';
  }
  void num(std::int64_t v) {
    char b[24];
    buf_.append(b, std::to_chars(b, b + sizeof b, v).ptr);
  }
  void dbl(double v) {
    char b[32];
    buf_.append(b, std::to_chars(b, b + sizeof b, v).ptr);
  }
  void time(TimeNs ns) { buf_ += formatMicros(ns); }
  void id(const ChromeId& c) {
    if (c.label != kEmptyString) {
      str(t_.str(c.label));
    } else {
      num(c.num);
    }
  }
  void beginEvent() {
    raw(first_ ? "\n  {" : ",\n  {");
    first_ = false;
  }
  void key(const char* k) {
    buf_ += '"';
    buf_ += k;
    buf_ += "\": ";
  }

  // --- top level
  void topLevelKeys() {
    for (const auto& [k, v] : t_.metadata.otherKeys) {
      raw("  ");
      str(k);
      raw(": ");
      raw(v);
      raw(",\n");
    }
    raw("  \"deviceProperties\": [");
    bool firstDevice = true;
    for (const auto& d : t_.metadata.devices) {
      raw(firstDevice ? "\n    " : ",\n    ");
      firstDevice = false;
      if (!d.rawJson.empty()) {
        raw(d.rawJson);
      } else {
        synthesizedDevice(d);
      }
    }
    raw(firstDevice ? "],\n" : "\n  ],\n");
    if (!t_.metadata.distributedInfoJson.empty()) {
      raw("  \"distributedInfo\": ");
      raw(t_.metadata.distributedInfoJson);
      raw(",\n");
    }
    if (!t_.metadata.displayTimeUnit.empty()) {
      raw("  \"displayTimeUnit\": ");
      str(t_.metadata.displayTimeUnit);
      raw(",\n");
    }
    raw("  \"baseTimeNanoseconds\": ");
    num(t_.metadata.baseTimeNanoseconds);
    raw(",\n");
  }

  void synthesizedDevice(const DeviceProperties& d) {
    raw("{\"id\": ");
    num(d.id);
    raw(", \"name\": ");
    str(d.name);
    raw(", \"totalGlobalMem\": ");
    num(d.totalGlobalMem);
    raw(", \"computeMajor\": ");
    num(d.computeMajor);
    raw(", \"computeMinor\": ");
    num(d.computeMinor);
    raw(", \"maxThreadsPerMultiprocessor\": ");
    num(d.maxThreadsPerMultiprocessor);
    raw(", \"numSms\": ");
    num(d.numSms);
    raw(", \"regsPerMultiprocessor\": ");
    num(d.regsPerMultiprocessor);
    raw(", \"sharedMemPerMultiprocessor\": ");
    num(d.sharedMemPerMultiprocessor);
    raw("}");
  }

  // --- metadata events
  void metadataEvent(const char* name, const ChromeId& pid, const ChromeId* tid, const char* argKey,
                     std::string_view text, const std::int64_t* number) {
    beginEvent();
    key("name");
    str(name);
    raw(", \"ph\": \"M\", ");
    key("pid");
    id(pid);
    raw(", ");
    key("tid");
    if (tid) {
      id(*tid);
    } else {
      num(0);
    }
    raw(", \"args\": {");
    key(argKey);
    if (number) {
      num(*number);
    } else {
      str(text);
    }
    raw("}}");
  }

  void processMetadata() {
    for (const Process& p : t_.processes) {
      if (p.name != kEmptyString) metadataEvent("process_name", p.pid, nullptr, "name", t_.str(p.name), nullptr);
      if (p.labels != kEmptyString)
        metadataEvent("process_labels", p.pid, nullptr, "labels", t_.str(p.labels), nullptr);
      metadataEvent("process_sort_index", p.pid, nullptr, "sort_index", {}, &p.sortIndex);
    }
  }

  void threadMetadata() {
    for (const Track& tr : t_.tracks) {
      if (tr.kind == TrackKind::Async) continue;  // synthetic lanes: no thread of their own
      if (tr.name != kEmptyString) metadataEvent("thread_name", tr.pid, &tr.tid, "name", t_.str(tr.name), nullptr);
      metadataEvent("thread_sort_index", tr.pid, &tr.tid, "sort_index", {}, &tr.sortIndex);
    }
  }

  // --- slices
  void common(const Slice& s, const Track& tr) {
    if (s.category != kEmptyString) {
      raw(", ");
      key("cat");
      str(t_.str(s.category));
    }
    raw(", ");
    key("name");
    str(t_.str(s.name));
    raw(", ");
    key("pid");
    id(tr.pid);
  }

  void args(const Slice& s) {
    std::string text = args_.slice(s);
    if (text.empty()) text = synthesizedArgs(s);
    if (text.empty()) return;
    raw(", ");
    key("args");
    raw(text);
  }

  std::string synthesizedArgs(const Slice& s) const {
    std::string a;
    auto field = [&a](const char* k, const std::string& v) {
      a += a.empty() ? "{\"" : ", \"";
      a += k;
      a += "\": ";
      a += v;
    };
    auto triple = [](const std::int32_t v[3]) {
      return "[" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + "]";
    };
    auto real = [](float v) {
      char b[32];
      return std::string(b, std::to_chars(b, b + sizeof b, v).ptr);
    };
    if (s.kernelInfo != kNoIndex) {
      const KernelInfo& k = t_.kernelInfos[s.kernelInfo];
      if (k.device >= 0) field("device", std::to_string(k.device));
      if (k.stream >= 0) field("stream", std::to_string(k.stream));
    }
    if (s.correlation != kNoCorrelation) field("correlation", std::to_string(s.correlation));
    if (s.kernelInfo != kNoIndex) {
      const KernelInfo& k = t_.kernelInfos[s.kernelInfo];
      if (k.registersPerThread >= 0) field("registers per thread", std::to_string(k.registersPerThread));
      if (k.sharedMemory >= 0) field("shared memory", std::to_string(k.sharedMemory));
      if (k.blocksPerSm >= 0) field("blocks per SM", real(k.blocksPerSm));
      if (k.warpsPerSm >= 0) field("warps per SM", real(k.warpsPerSm));
      field("grid", triple(k.grid));
      field("block", triple(k.block));
      if (k.occupancyPct >= 0) field("est. achieved occupancy %", real(k.occupancyPct));
    }
    if (s.shapes != kEmptyString) field("Input Dims", std::string(t_.str(s.shapes)));
    if (!a.empty()) a += "}";
    return a;
  }

  void trackSlices(std::uint32_t trackIndex) {
    const Track& tr = t_.tracks[trackIndex];
    for (const Slice* s = t_.trackBegin(tr); s != t_.trackEnd(tr); ++s) {
      if (tr.kind == TrackKind::Async) {
        asyncSlice(*s, tr);
        continue;
      }
      beginEvent();
      raw("\"ph\": \"X\"");
      common(*s, tr);
      raw(", ");
      key("tid");
      id(tr.tid);
      raw(", ");
      key("ts");
      time(s->start);
      raw(", ");
      key("dur");
      time(s->dur);
      args(*s);
      raw("}");
    }
  }

  // A nestable async slice as a b/e pair with an id of its own.
  void asyncSlice(const Slice& s, const Track& tr) {
    std::uint64_t asyncId = ++asyncIds_;
    for (char phase : {'b', 'e'}) {
      beginEvent();
      raw(phase == 'b' ? "\"ph\": \"b\"" : "\"ph\": \"e\"");
      common(s, tr);
      raw(", \"tid\": 0, ");
      key("ts");
      time(phase == 'b' ? s.start : s.end());
      raw(", \"id\": ");
      str("0x" + std::to_string(asyncId));
      if (phase == 'b') args(s);
      raw("}");
    }
  }

  // --- flows
  void flows() {
    // Readers pair s and f by (category, id): a repeated pair gets a fresh id.
    std::set<std::pair<StringId, std::uint64_t>> used;
    std::uint64_t nextId = 0;
    for (const Flow& f : t_.flows) nextId = std::max(nextId, f.id);
    for (const Flow& f : t_.flows) {
      if (f.from == kNoIndex || f.to == kNoIndex) continue;
      std::uint64_t flowId = used.insert({f.category, f.id}).second ? f.id : ++nextId;
      flowEvent('s', f, flowId, t_.slices[f.from]);
      flowEvent('f', f, flowId, t_.slices[f.to]);
    }
  }

  void flowEvent(char phase, const Flow& f, std::uint64_t flowId, const Slice& at) {
    const Track& tr = t_.tracks[at.track];
    beginEvent();
    raw(phase == 's' ? "\"ph\": \"s\", " : "\"ph\": \"f\", ");
    key("id");
    num(static_cast<std::int64_t>(flowId));
    raw(", ");
    key("pid");
    id(tr.pid);
    raw(", ");
    key("tid");
    id(tr.tid);
    raw(", ");
    key("ts");
    time(at.start);
    if (f.category != kEmptyString) {
      raw(", ");
      key("cat");
      str(t_.str(f.category));
    }
    raw(", ");
    key("name");
    str(t_.str(f.name));
    if (phase == 'f') raw(", \"bp\": \"e\"");
    raw("}");
  }

  // --- instants and counters
  void instants() {
    for (const Instant& in : t_.instants) {
      const Track* tr = in.track != kNoIndex ? &t_.tracks[in.track] : nullptr;
      const Process* pr = in.process != kNoIndex ? &t_.processes[in.process] : nullptr;
      beginEvent();
      if (tr && tr->kind == TrackKind::Async) {
        // An async instant ('n') on its async lane.
        raw("\"ph\": \"n\", \"id\": \"0x0\", \"tid\": 0, ");
        key("pid");
        id(tr->pid);
      } else {
        raw("\"ph\": \"i\", \"s\": ");
        char scope = tr ? 't' : pr ? 'p' : 'g';
        str(std::string(1, scope));
        if (tr || pr) {
          raw(", ");
          key("pid");
          id(tr ? tr->pid : pr->pid);
        }
        if (tr) {
          raw(", ");
          key("tid");
          id(tr->tid);
        }
      }
      raw(", ");
      key("name");
      str(t_.str(in.name));
      if (in.category != kEmptyString) {
        raw(", ");
        key("cat");
        str(t_.str(in.category));
      }
      raw(", ");
      key("ts");
      time(in.ts);
      std::string a = args_.instant(in);
      if (!a.empty()) {
        raw(", ");
        key("args");
        raw(a);
      }
      raw("}");
    }
  }

  void counters() {
    for (const CounterSeries& c : t_.counters) {
      for (std::size_t i = 0; i < c.ts.size() && i < c.values.size(); ++i) {
        beginEvent();
        raw("\"ph\": \"C\", ");
        key("name");
        str(t_.str(c.name));
        if (c.process != kNoIndex) {
          raw(", ");
          key("pid");
          id(t_.processes[c.process].pid);
        }
        raw(", ");
        key("ts");
        time(c.ts[i]);
        raw(", \"args\": {\"value\": ");
        dbl(c.values[i]);
        raw("}}");
      }
    }
  }

  const Trace& t_;
  EventArgs args_;  // a .json.gz's fetched in file order first
  detail::Sink& sink_;
  std::string buf_;
  std::uint64_t written_ = 0;
  std::uint64_t asyncIds_ = 0;
  bool first_ = true;
};

bool endsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string chromeTraceJson(const Trace& trace) {
  detail::StringSink sink;
  JsonWriter(trace, sink).write();
  return std::move(sink.out);
}

WriteResult writeChromeTrace(const Trace& trace, const std::string& path, const WriteOptions& options) {
  WriteResult result;
  bool gzip = options.compression == Compression::Gzip ||
              (options.compression == Compression::Auto && endsWith(path, ".gz"));
  detail::AtomicFile file(path, gzip, std::clamp(options.gzipLevel, 1, 9));
  JsonWriter writer(trace, file);
  if (!file.error().empty() || !writer.write() || !file.commit()) {
    result.error = "cannot write " + path + ": " + file.error();
    return result;
  }
  result.bytes = file.bytesStored();
  result.jsonBytes = writer.bytes();
  return result;
}

}  // namespace gapscope::writer
