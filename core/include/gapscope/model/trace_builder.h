// TraceBuilder: the one way to make a Trace. Readers (the Chrome JSON reader,
// the CUPTI recorder) and tests feed it events in file order; finish() does
// everything that needs the whole trace: B/E and async matching, sorting per
// track, depths and spill rows, flow binding, correlation indices.
//
// Parallel readers give each chunk its own builder and merge() them in file
// order; strings and tracks are remapped on merge.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gapscope/model/trace.h"

namespace gapscope {

struct SliceEvent {
  ChromeId pid;
  ChromeId tid;
  TimeNs start = 0;
  TimeNs dur = 0;  // ignored for B events
  StringId name = kEmptyString;
  StringId category = kEmptyString;
  std::int64_t correlation = kNoCorrelation;
  ArgsRef args;
  StringId shapes = kEmptyString;
  std::optional<KernelInfo> kernel;
  // Flow v2 (bind_id / flow_in / flow_out on the slice itself).
  std::uint64_t bindId = 0;
  bool hasBindId = false;
  bool flowIn = false;
  bool flowOut = false;
  std::uint64_t offset = 0;  // byte offset of the event in the source
};

struct FlowEvent {
  char phase = 's';  // 's', 't' or 'f'
  ChromeId pid;
  ChromeId tid;
  TimeNs ts = 0;
  StringId name = kEmptyString;
  StringId category = kEmptyString;
  std::uint64_t id = 0;
  bool bindEnclosing = false;  // bp:"e" (a finish binds to the enclosing slice)
  std::uint64_t offset = 0;
};

struct AsyncEvent {
  char phase = 'b';  // 'b', 'e' or 'n'
  ChromeId pid;
  ChromeId tid;
  TimeNs ts = 0;
  StringId name = kEmptyString;
  StringId category = kEmptyString;
  std::string id;  // id, id2.local or id2.global as text (scoped by cat)
  ArgsRef args;
  std::uint64_t offset = 0;
};

struct InstantEvent {
  ChromeId pid;
  ChromeId tid;
  TimeNs ts = 0;
  StringId name = kEmptyString;
  StringId category = kEmptyString;
  char scope = 't';
  ArgsRef args;
  std::uint64_t offset = 0;
};

class TraceBuilder {
 public:
  TraceBuilder();
  ~TraceBuilder();
  TraceBuilder(TraceBuilder&&) noexcept;
  TraceBuilder& operator=(TraceBuilder&&) noexcept;

  StringId intern(std::string_view text);
  std::string_view str(StringId id) const;
  ChromeId numericId(std::int64_t n) const { return ChromeId{n, kEmptyString}; }
  ChromeId stringId(std::string_view text);

  void addComplete(const SliceEvent& e);  // ph X
  void addBegin(const SliceEvent& e);     // ph B
  void addEnd(ChromeId pid, ChromeId tid, TimeNs ts, std::uint64_t offset);  // ph E
  void addInstant(const InstantEvent& e);                                     // ph i / I
  void addCounter(ChromeId pid, StringId series, TimeNs ts, double value,
                  std::uint64_t offset);  // ph C, one call per numeric arg
  void addAsync(AsyncEvent e);            // ph b / e / n
  void addFlow(const FlowEvent& e);       // ph s / t / f

  // Metadata (ph M) and top-level keys.
  void setProcessName(ChromeId pid, std::string_view name);
  void setProcessLabels(ChromeId pid, std::string_view labels);
  void setProcessSortIndex(ChromeId pid, std::int64_t index);
  void setThreadName(ChromeId pid, ChromeId tid, std::string_view name);
  void setThreadSortIndex(ChromeId pid, ChromeId tid, std::int64_t index);
  TraceMetadata& metadata();
  ImportIssues& issues();
  void countEvents(std::uint64_t n);
  // Notes a timestamp of an event that makes no slice (a dropped event),
  // so "end of trace" for unclosed slices covers it.
  void noteTime(TimeNs ts);

  // Optional hint: about how many slices and flow events (s/t/f) will be
  // added, e.g. estimated by a reader from the file size. The big arrays
  // are then allocated once instead of regrowing (and for a moment
  // existing twice) while chunks are merged; capacity never touched costs
  // no memory.
  void reserve(std::size_t slices, std::size_t flowEvents);

  // Appends everything of `later` (which came after this builder's events
  // in the file) into this one.
  void merge(TraceBuilder&& later);

  // Builds the trace. `args` fetches args text on demand (may be null).
  // Up to `threads` threads sort and link a trace of many slices (two at
  // least: the flow events are ordered beside the slices).
  Trace finish(std::shared_ptr<const ArgsSource> args = nullptr, int threads = 2);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gapscope
