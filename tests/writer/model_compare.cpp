#include "model_compare.h"

#include <sstream>
#include <vector>

namespace gapscope::roundtrip {

namespace {

class Comparer {
 public:
  Comparer(const Trace& a, const Trace& b, const CompareOptions& o) : a_(a), b_(b), o_(o) {}

  std::string run() {
    metadata();
    if (!diff_.empty()) return diff_;
    processes();
    if (!diff_.empty()) return diff_;
    tracks();
    if (!diff_.empty()) return diff_;
    slices();
    if (!diff_.empty()) return diff_;
    flows();
    instants();
    counters();
    if (o_.compareIssues) issues();
    same("minTime", a_.minTime(), b_.minTime());
    same("maxTime", a_.maxTime(), b_.maxTime());
    return diff_;
  }

 private:
  template <class T>
  bool same(const std::string& what, const T& x, const T& y) {
    if (!diff_.empty()) return false;
    if (x == y) return true;
    std::ostringstream s;
    s << what << ": " << x << " != " << y;
    diff_ = s.str();
    return false;
  }
  template <class T>
  bool sameVec(const std::string& what, const std::vector<T>& x, const std::vector<T>& y) {
    if (!same(what + " size", x.size(), y.size())) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!same(what + "[" + std::to_string(i) + "]", x[i], y[i])) return false;
    return true;
  }
  bool sameText(const std::string& what, StringId x, StringId y) {
    return same(what, std::string(a_.str(x)), std::string(b_.str(y)));
  }
  bool sameId(const std::string& what, const ChromeId& x, const ChromeId& y) {
    return same(what + ".num", x.num, y.num) && sameText(what + ".label", x.label, y.label);
  }

  void metadata() {
    const TraceMetadata& x = a_.metadata;
    const TraceMetadata& y = b_.metadata;
    same("baseTimeNanoseconds", x.baseTimeNanoseconds, y.baseTimeNanoseconds);
    same("displayTimeUnit", x.displayTimeUnit, y.displayTimeUnit);
    same("distributedInfo", x.distributedInfoJson, y.distributedInfoJson);
    if (!same("device count", x.devices.size(), y.devices.size())) return;
    for (std::size_t i = 0; i < x.devices.size(); ++i) {
      const auto& d = x.devices[i];
      const auto& e = y.devices[i];
      std::string p = "device " + std::to_string(i) + " ";
      same(p + "id", d.id, e.id);
      same(p + "name", d.name, e.name);
      same(p + "numSms", d.numSms, e.numSms);
      same(p + "computeMajor", d.computeMajor, e.computeMajor);
      same(p + "computeMinor", d.computeMinor, e.computeMinor);
      same(p + "maxThreadsPerMultiprocessor", d.maxThreadsPerMultiprocessor, e.maxThreadsPerMultiprocessor);
      same(p + "regsPerMultiprocessor", d.regsPerMultiprocessor, e.regsPerMultiprocessor);
      same(p + "sharedMemPerMultiprocessor", d.sharedMemPerMultiprocessor, e.sharedMemPerMultiprocessor);
      same(p + "totalGlobalMem", d.totalGlobalMem, e.totalGlobalMem);
      if (!d.rawJson.empty()) same(p + "rawJson", d.rawJson, e.rawJson);
    }
    if (!same("otherKeys count", x.otherKeys.size(), y.otherKeys.size())) return;
    for (std::size_t i = 0; i < x.otherKeys.size(); ++i) {
      same("otherKey " + std::to_string(i), x.otherKeys[i].first, y.otherKeys[i].first);
      same("otherKey " + x.otherKeys[i].first, x.otherKeys[i].second, y.otherKeys[i].second);
    }
  }

  void processes() {
    if (!same("process count", a_.processes.size(), b_.processes.size())) return;
    for (std::size_t i = 0; i < a_.processes.size(); ++i) {
      const Process& x = a_.processes[i];
      const Process& y = b_.processes[i];
      std::string p = "process " + std::to_string(i) + " ";
      sameId(p + "pid", x.pid, y.pid);
      sameText(p + "name", x.name, y.name);
      sameText(p + "labels", x.labels, y.labels);
      same(p + "sortIndex", x.sortIndex, y.sortIndex);
      same(p + "isGpu", x.isGpu, y.isGpu);
      sameVec(p + "tracks", x.tracks, y.tracks);
    }
  }

  void tracks() {
    if (!same("track count", a_.tracks.size(), b_.tracks.size())) return;
    for (std::size_t i = 0; i < a_.tracks.size(); ++i) {
      const Track& x = a_.tracks[i];
      const Track& y = b_.tracks[i];
      std::string p = "track " + std::to_string(i) + " ";
      same(p + "kind", int(x.kind), int(y.kind));
      if (x.kind != TrackKind::Async) {  // async lanes are keyed by a synthetic tid
        sameId(p + "pid", x.pid, y.pid);
        sameId(p + "tid", x.tid, y.tid);
      }
      same(p + "process", x.process, y.process);
      sameText(p + "name", x.name, y.name);
      same(p + "sortIndex", x.sortIndex, y.sortIndex);
      same(p + "device", x.device, y.device);
      same(p + "stream", x.stream, y.stream);
      same(p + "firstSlice", x.firstSlice, y.firstSlice);
      same(p + "sliceCount", x.sliceCount, y.sliceCount);
      same(p + "nestedRows", x.nestedRows, y.nestedRows);
      same(p + "rows", x.rows, y.rows);
    }
  }

  void slices() {
    if (!same("slice count", a_.slices.size(), b_.slices.size())) return;
    constexpr std::uint8_t kProvenance = kSliceFromBegin | kSliceUnclosed;
    for (std::size_t i = 0; i < a_.slices.size() && diff_.empty(); ++i) {
      const Slice& x = a_.slices[i];
      const Slice& y = b_.slices[i];
      std::string p = "slice " + std::to_string(i) + " (" + std::string(a_.str(x.name)) + ") ";
      sameText(p + "name", x.name, y.name);
      sameText(p + "category", x.category, y.category);
      same(p + "start", x.start, y.start);
      same(p + "dur", x.dur, y.dur);
      same(p + "correlation", x.correlation, y.correlation);
      sameText(p + "shapes", x.shapes, y.shapes);
      same(p + "track", x.track, y.track);
      same(p + "depth", x.depth, y.depth);
      same(p + "parent", x.parent, y.parent);
      same(p + "flags", int(x.flags & ~kProvenance), int(y.flags & ~kProvenance));
      same(p + "kind", int(x.kind), int(y.kind));
      same(p + "has kernel info", x.kernelInfo != kNoIndex, y.kernelInfo != kNoIndex);
      if (diff_.empty() && x.kernelInfo != kNoIndex &&
          a_.kernelInfos[x.kernelInfo] != b_.kernelInfos[y.kernelInfo])
        diff_ = p + "kernel info differs";
      std::string ax = a_.argsJson(x);
      if (!ax.empty() || !o_.argsOnlyWhereFirstHasThem) same(p + "args", ax, b_.argsJson(y));
    }
  }

  void flows() {
    if (!same("flow count", a_.flows.size(), b_.flows.size())) return;
    for (std::size_t i = 0; i < a_.flows.size(); ++i) {
      const Flow& x = a_.flows[i];
      const Flow& y = b_.flows[i];
      std::string p = "flow " + std::to_string(i) + " ";
      same(p + "from", x.from, y.from);
      same(p + "to", x.to, y.to);
      same(p + "id", x.id, y.id);
      sameText(p + "category", x.category, y.category);
      sameText(p + "name", x.name, y.name);
      same(p + "kind", int(x.kind), int(y.kind));
    }
  }

  void instants() {
    if (!same("instant count", a_.instants.size(), b_.instants.size())) return;
    for (std::size_t i = 0; i < a_.instants.size(); ++i) {
      const Instant& x = a_.instants[i];
      const Instant& y = b_.instants[i];
      std::string p = "instant " + std::to_string(i) + " ";
      same(p + "ts", x.ts, y.ts);
      sameText(p + "name", x.name, y.name);
      sameText(p + "category", x.category, y.category);
      same(p + "process", x.process, y.process);
      same(p + "track", x.track, y.track);
      same(p + "scope", x.scope, y.scope);
      std::string ax = a_.argsJson(x.args);
      if (!ax.empty() || !o_.argsOnlyWhereFirstHasThem) same(p + "args", ax, b_.argsJson(y.args));
    }
  }

  void counters() {
    if (!same("counter count", a_.counters.size(), b_.counters.size())) return;
    for (std::size_t i = 0; i < a_.counters.size(); ++i) {
      std::string p = "counter " + std::to_string(i) + " ";
      sameText(p + "name", a_.counters[i].name, b_.counters[i].name);
      same(p + "process", a_.counters[i].process, b_.counters[i].process);
      sameVec(p + "ts", a_.counters[i].ts, b_.counters[i].ts);
      sameVec(p + "values", a_.counters[i].values, b_.counters[i].values);
    }
  }

  void issues() {
    const auto& x = a_.issues.all();
    const auto& y = b_.issues.all();
    if (!same("issue count", x.size(), y.size())) return;
    for (std::size_t i = 0; i < x.size(); ++i) {
      same("issue " + std::to_string(i), x[i].name, y[i].name);
      same("issue " + x[i].name + " count", x[i].count, y[i].count);
    }
  }

  const Trace& a_;
  const Trace& b_;
  CompareOptions o_;
  std::string diff_;
};

}  // namespace

std::string compareTraces(const Trace& a, const Trace& b, const CompareOptions& options) {
  return Comparer(a, b, options).run();
}

}  // namespace gapscope::roundtrip
