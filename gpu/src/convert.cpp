// RecordSet -> Trace. The result has the shape the Chrome reader gives for a
// Kineto file: the host process (pid = process id) with one lane per thread
// holding ProfilerStep#N and op ranges with the API calls nested inside; one
// process per device (pid = device id) with one lane per stream; ac2g flows
// from each launch call to its first GPU op; cuda_sync slices nested in the
// call that waited (stream waits on their stream); CUPTI overhead on pid -1. Times are relative to
// baseTimeNanoseconds, as Kineto writes them.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "gapscope/io/recording_issues.h"
#include "gapscope/gpu/records.h"
#include "gapscope/model/trace_builder.h"
#include "json_text.h"

namespace gapscope::gpu {

namespace {

constexpr std::int64_t kGpuSortIndexBase = 5000000;  // Kineto's process_sort_index for GPUs
constexpr std::int64_t kOverheadPid = -1;            // Kineto puts CUPTI overhead here
constexpr std::int64_t kNsPerSecond = 1000000000;

// CUPTI's clock -> trace time (ns relative to baseTimeNanoseconds).
struct RecordClock {
  std::int64_t base = 0;     // baseTimeNanoseconds
  std::int64_t offset = 0;   // trace time of `anchor`
  std::uint64_t anchor = 0;  // a CUPTI timestamp

  TimeNs at(std::uint64_t t) const {
    // Unsigned difference reinterpreted as signed: exact for any two
    // timestamps less than 292 years apart.
    return offset + static_cast<std::int64_t>(t - anchor);
  }
};

std::uint64_t earliestTimestamp(const RecordSet& r) {
  std::uint64_t t = UINT64_MAX;
  auto take = [&t](const auto& v) {
    for (const auto& x : v) t = std::min<std::uint64_t>(t, x.start);
  };
  take(r.apiCalls);
  take(r.kernels);
  take(r.memcpys);
  take(r.memsets);
  take(r.syncs);
  take(r.overheads);
  take(r.ranges);
  return t == UINT64_MAX ? 0 : t;
}

// The wall clock at CUPTI timestamp `t`.
std::int64_t wallAt(const RecordSet& r, std::uint64_t t) {
  return r.wallClockAtAnchor + static_cast<std::int64_t>(t - r.clockAnchor);
}

RecordClock makeClock(const RecordSet& r) {
  RecordClock c;
  const std::uint64_t first = earliestTimestamp(r);
  if (r.wallClockAtAnchor == 0) {  // no wall clock: the trace starts at 0
    c.anchor = first;
    return c;
  }
  const std::int64_t zero = r.baseWallClock != 0 ? r.baseWallClock : wallAt(r, first);
  // Whole seconds, as Kineto does, so `ts` stays short and exact.
  c.base = zero - ((zero % kNsPerSecond) + kNsPerSecond) % kNsPerSecond;
  c.anchor = r.clockAnchor;
  c.offset = r.wallClockAtAnchor - c.base;
  return c;
}

struct GpuOpRef {
  std::uint64_t start = 0;
  std::uint32_t device = 0;
  std::uint32_t stream = 0;
};

class Converter {
 public:
  explicit Converter(const RecordSet& r)
      : r_(r), clock_(makeClock(r)), arena_(std::make_shared<detail::ArgsArena>()) {
    cat_.userAnnotation = b_.intern("user_annotation");
    cat_.cpuOp = b_.intern("cpu_op");
    cat_.runtime = b_.intern("cuda_runtime");
    cat_.driver = b_.intern("cuda_driver");
    cat_.kernel = b_.intern("kernel");
    cat_.memcpy = b_.intern("gpu_memcpy");
    cat_.memset = b_.intern("gpu_memset");
    cat_.sync = b_.intern("cuda_sync");
    cat_.overhead = b_.intern("overhead");
    cat_.flow = b_.intern("ac2g");
  }

  Trace run() {
    indexDevices();
    indexGpuOps();
    addProcessesAndThreads();
    addHostRanges();
    addApiCalls();
    addKernels();
    addMemcpys();
    addMemsets();
    addSyncs();
    addOverheads();
    addFlows();
    addMetadata();
    b_.countEvents(events_);
    return b_.finish(arena_);
  }

 private:
  struct Categories {
    StringId userAnnotation, cpuOp, runtime, driver, kernel, memcpy, memset, sync, overhead, flow;
  };

  // The host process of a record: in a recording of several processes (a
  // program and its children) the one the record names, else the recording's.
  std::uint32_t pidOf(std::uint32_t recordPid) const {
    return r_.processes.empty() || recordPid == 0 ? r_.processId : recordPid;
  }
  ChromeId cpuPid(std::uint32_t recordPid) const { return b_.numericId(pidOf(recordPid)); }
  ChromeId num(std::int64_t n) const { return b_.numericId(n); }

  void indexDevices() {
    for (const auto& d : r_.devices) devices_[static_cast<std::uint32_t>(d.id)] = &d;
    // Sync records carry a context only; learn context -> device from the rest.
    for (const auto& k : r_.kernels) contextDevice_.emplace(k.contextId, k.deviceId);
    for (const auto& m : r_.memcpys) contextDevice_.emplace(m.contextId, m.deviceId);
    for (const auto& m : r_.memsets) contextDevice_.emplace(m.contextId, m.deviceId);
  }

  void noteGpuOp(std::uint64_t correlation, std::uint64_t start, std::uint32_t device,
                 std::uint32_t stream) {
    streams_.insert({device, stream});
    if (correlation == 0) return;
    auto [it, inserted] = firstGpuOp_.try_emplace(correlation, GpuOpRef{start, device, stream});
    if (!inserted && start < it->second.start) it->second = GpuOpRef{start, device, stream};
  }

  void indexGpuOps() {
    for (const auto& k : r_.kernels) noteGpuOp(k.correlationId, k.start, k.deviceId, k.streamId);
    for (const auto& m : r_.memcpys) noteGpuOp(m.correlationId, m.start, m.deviceId, m.streamId);
    for (const auto& m : r_.memsets) noteGpuOp(m.correlationId, m.start, m.deviceId, m.streamId);
  }

  std::uint32_t syncDevice(const SyncRecord& s) const {
    auto it = contextDevice_.find(s.contextId);
    return it != contextDevice_.end() ? it->second : s.deviceId;
  }

  std::string processName(std::uint32_t pid) const {
    for (const auto& p : r_.processes)
      if (p.processId == pid && !p.name.empty()) return p.name;
    if (pid == r_.processId && !r_.processName.empty()) return r_.processName;
    return "gapscope";
  }

  void addProcessesAndThreads() {
    std::set<std::pair<std::uint32_t, std::uint32_t>> threads;  // (pid, tid)
    threads.emplace(r_.processId, 0);  // the recording's process is always named
    for (const auto& a : r_.apiCalls) threads.emplace(pidOf(a.processId), a.threadId);
    for (const auto& h : r_.ranges) threads.emplace(pidOf(h.processId), h.threadId);
    for (const auto& p : r_.processes) threads.emplace(p.processId, 0);
    std::uint32_t named = UINT32_MAX;
    for (const auto& [pidNum, tid] : threads) {
      ChromeId pid = num(pidNum);
      std::string pname = processName(pidNum);
      if (named != pidNum) {
        b_.setProcessName(pid, pname);
        b_.setProcessLabels(pid, "CPU");
        b_.setProcessSortIndex(pid, pidNum);
        named = pidNum;
      }
      if (tid == 0) continue;
      b_.setThreadName(pid, num(tid), "thread " + std::to_string(tid) + " (" + pname + ")");
      b_.setThreadSortIndex(pid, num(tid), tid);
    }
    std::string pname = processName(r_.processId);
    std::set<std::uint32_t> gpus;
    for (const auto& d : r_.devices) gpus.insert(static_cast<std::uint32_t>(d.id));
    for (const auto& [dev, stream] : streams_) gpus.insert(dev);
    for (const auto& s : r_.syncs) gpus.insert(syncDevice(s));
    for (std::uint32_t dev : gpus) {
      b_.setProcessName(num(dev), pname);
      b_.setProcessLabels(num(dev), "GPU " + std::to_string(dev));
      b_.setProcessSortIndex(num(dev), kGpuSortIndexBase + dev);
    }
    for (const auto& [dev, stream] : streams_) {
      b_.setThreadName(num(dev), num(stream), "stream " + std::to_string(stream));
      b_.setThreadSortIndex(num(dev), num(stream), stream);
    }
    if (!r_.overheads.empty()) b_.setProcessName(num(kOverheadPid), "CUPTI overhead");
  }

  SliceEvent slice(ChromeId pid, ChromeId tid, std::uint64_t start, std::uint64_t end,
                   std::string_view name, StringId category) {
    SliceEvent e;
    e.pid = pid;
    e.tid = tid;
    e.start = clock_.at(start);
    e.dur = end > start ? static_cast<TimeNs>(end - start) : 0;
    e.name = b_.intern(name);
    e.category = category;
    ++events_;
    return e;
  }

  void addHostRanges() {
    for (const auto& h : r_.ranges) {
      bool op = h.kind == HostRangeKind::Op;
      b_.addComplete(slice(cpuPid(h.processId), num(h.threadId), h.start, h.end, h.name,
                           op ? cat_.cpuOp : cat_.userAnnotation));
    }
  }

  // CUPTI may report the driver calls a runtime call makes internally; Kineto
  // traces show only the outer call, so those are dropped unless a GPU op
  // correlates with the driver call alone.
  std::vector<bool> internalDriverCalls() const {
    // By (pid, tid): thread ids are unique on one machine at one time, but a
    // recording of several processes may outlive one and see it reused.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<const ApiCallRecord*>> runtimeByThread;
    for (const auto& a : r_.apiCalls)
      if (a.domain == ApiDomain::Runtime) runtimeByThread[{pidOf(a.processId), a.threadId}].push_back(&a);
    for (auto& [tid, v] : runtimeByThread)
      std::sort(v.begin(), v.end(), [](auto* x, auto* y) { return x->start < y->start; });
    std::vector<bool> drop(r_.apiCalls.size(), false);
    for (std::size_t i = 0; i < r_.apiCalls.size(); ++i) {
      const ApiCallRecord& d = r_.apiCalls[i];
      if (d.domain != ApiDomain::Driver) continue;
      auto it = runtimeByThread.find({pidOf(d.processId), d.threadId});
      if (it == runtimeByThread.end()) continue;
      const auto& v = it->second;
      auto after = std::upper_bound(v.begin(), v.end(), d.start,
                                    [](std::uint64_t t, const ApiCallRecord* a) { return t < a->start; });
      if (after == v.begin()) continue;
      const ApiCallRecord* outer = *(after - 1);
      if (outer->end < d.end) continue;
      bool ownsGpuOp = d.correlationId != outer->correlationId && firstGpuOp_.count(d.correlationId) &&
                       !firstGpuOp_.count(outer->correlationId);
      drop[i] = !ownsGpuOp;
    }
    return drop;
  }

  void addApiCalls() {
    std::vector<bool> drop = internalDriverCalls();
    std::uint64_t dropped = 0;
    for (std::size_t i = 0; i < r_.apiCalls.size(); ++i) {
      const ApiCallRecord& a = r_.apiCalls[i];
      if (drop[i]) {
        ++dropped;
        continue;
      }
      bool runtime = a.domain == ApiDomain::Runtime;
      SliceEvent e = slice(cpuPid(a.processId), num(a.threadId), a.start, a.end, a.name,
                           runtime ? cat_.runtime : cat_.driver);
      e.correlation = static_cast<std::int64_t>(a.correlationId);
      std::string args = "{\"cbid\": ";
      detail::appendInt(args, a.cbid);
      args += ", \"correlation\": ";
      detail::appendInt(args, static_cast<std::int64_t>(a.correlationId));
      args += "}";
      e.args = arena_->add(args);
      b_.addComplete(e);
      if (a.correlationId != 0 && firstGpuOp_.count(a.correlationId))
        launches_.try_emplace(a.correlationId, &a);
    }
    if (dropped > 0) {
      b_.issues().add("internal_driver_calls", Severity::Info, 0,
                      "driver API calls made inside runtime API calls: left out, as Kineto does",
                      dropped);
    }
  }

  static void appendCommonGpuArgs(std::string& args, std::uint32_t device, std::uint32_t context,
                                  std::uint32_t stream, std::uint64_t correlation) {
    args += "\"device\": ";
    detail::appendInt(args, device);
    args += ", \"context\": ";
    detail::appendInt(args, context);
    args += ", \"stream\": ";
    detail::appendInt(args, stream);
    args += ", \"correlation\": ";
    detail::appendInt(args, static_cast<std::int64_t>(correlation));
  }

  static void appendTriple(std::string& args, const char* key, const std::int32_t v[3]) {
    args += ", \"";
    args += key;
    args += "\": [";
    for (int i = 0; i < 3; ++i) {
      if (i) args += ", ";
      detail::appendInt(args, v[i]);
    }
    args += "]";
  }

  // Kineto prints these two with six decimals. Returns the value as a
  // reader of that text sees it, so the model equals the model read back.
  static float appendFixed6(std::string& args, float v) {
    char buf[48];
    int n = std::snprintf(buf, sizeof buf, "%.6f", static_cast<double>(v));
    args.append(buf, static_cast<std::size_t>(std::max(0, n)));
    return std::strtof(buf, nullptr);
  }

  void addKernels() {
    for (const auto& k : r_.kernels) {
      SliceEvent e = slice(num(k.deviceId), num(k.streamId), k.start, k.end, k.name, cat_.kernel);
      e.correlation = static_cast<std::int64_t>(k.correlationId);
      KernelInfo info;
      std::copy(k.grid, k.grid + 3, info.grid);
      std::copy(k.block, k.block + 3, info.block);
      info.registersPerThread = k.registersPerThread;
      info.sharedMemory = std::int64_t{k.staticSharedMemory} + k.dynamicSharedMemory;
      info.device = static_cast<std::int32_t>(k.deviceId);
      info.stream = k.streamId;
      auto dev = devices_.find(k.deviceId);
      OccupancyEstimate occ;
      if (dev != devices_.end()) occ = estimateOccupancy(*dev->second, k);
      info.occupancyPct = occ.occupancyPct;

      std::string args = "{\"queued\": 0, ";
      appendCommonGpuArgs(args, k.deviceId, k.contextId, k.streamId, k.correlationId);
      args += ", \"registers per thread\": ";
      detail::appendInt(args, k.registersPerThread);
      args += ", \"shared memory\": ";
      detail::appendInt(args, info.sharedMemory);
      if (occ.blocksPerSm >= 0) {
        args += ", \"blocks per SM\": ";
        info.blocksPerSm = appendFixed6(args, occ.blocksPerSm);
        args += ", \"warps per SM\": ";
        info.warpsPerSm = appendFixed6(args, occ.warpsPerSm);
      }
      appendTriple(args, "grid", k.grid);
      appendTriple(args, "block", k.block);
      if (occ.occupancyPct >= 0) {
        args += ", \"est. achieved occupancy %\": ";
        detail::appendInt(args, static_cast<std::int64_t>(occ.occupancyPct));
      }
      if (k.graphId != 0) {
        args += ", \"graph id\": ";
        detail::appendInt(args, k.graphId);
        args += ", \"graph node id\": ";
        detail::appendInt(args, static_cast<std::int64_t>(k.graphNodeId));
      }
      args += "}";
      e.args = arena_->add(args);
      e.kernel = info;
      b_.addComplete(e);
    }
  }

  // bytes per nanosecond is GB/s.
  static void appendBandwidth(std::string& args, std::uint64_t bytes, std::uint64_t start,
                              std::uint64_t end) {
    if (end <= start) return;
    args += ", \"memory bandwidth (GB/s)\": ";
    detail::appendDouble(args, static_cast<double>(bytes) / static_cast<double>(end - start));
  }

  // A memcpy or a memset: a slice with its bytes and bandwidth in the args.
  template <class Transfer>
  void addTransfer(const Transfer& m, const std::string& name, StringId category) {
    SliceEvent e = slice(num(m.deviceId), num(m.streamId), m.start, m.end, name, category);
    e.correlation = static_cast<std::int64_t>(m.correlationId);
    std::string args = "{";
    appendCommonGpuArgs(args, m.deviceId, m.contextId, m.streamId, m.correlationId);
    args += ", \"bytes\": ";
    detail::appendInt(args, static_cast<std::int64_t>(m.bytes));
    appendBandwidth(args, m.bytes, m.start, m.end);
    args += "}";
    e.args = arena_->add(args);
    b_.addComplete(e);
  }

  void addMemcpys() {
    for (const auto& m : r_.memcpys) addTransfer(m, memcpyName(m), cat_.memcpy);
  }

  void addMemsets() {
    for (const auto& m : r_.memsets) addTransfer(m, memsetName(m), cat_.memset);
  }

  // Where a sync marker goes. Kineto puts every cuda_sync on the stream
  // lane, where a host wait overlaps the kernels it waits for and spills
  // them onto extra rows; a blocking wait is the host thread's time, so it
  // goes on that thread, nested in the call that waited (found by the
  // correlation id). "Stream Wait Event" blocks a stream, not a thread: it
  // stays on the stream lane, as in Kineto.
  const ApiCallRecord* blockingCall(const SyncRecord& s) const {
    if (s.kind == SyncKind::StreamWaitEvent || s.correlationId == 0) return nullptr;
    auto it = callsByCorrelation_.find(s.correlationId);
    return it == callsByCorrelation_.end() ? nullptr : it->second;
  }

  void addSyncs() {
    for (const auto& a : r_.apiCalls)
      if (a.correlationId != 0) callsByCorrelation_.emplace(a.correlationId, &a);
    for (const auto& s : r_.syncs) {
      std::uint32_t dev = syncDevice(s);
      // Kineto: the stream as a signed 32-bit number, so "no stream"
      // (context and device syncs) becomes -1.
      std::int64_t stream = static_cast<std::int32_t>(s.streamId);
      ChromeId pid = num(dev);
      ChromeId tid = num(stream);
      if (const ApiCallRecord* call = blockingCall(s)) {
        pid = cpuPid(call->processId);
        tid = num(call->threadId);
      } else if (stream == -1) {
        b_.setThreadName(pid, tid, "context sync");
      } else if (!streams_.count({dev, s.streamId})) {
        b_.setThreadName(pid, tid, "stream " + std::to_string(stream));
      }
      SliceEvent e = slice(pid, tid, s.start, s.end, syncKindName(s.kind), cat_.sync);
      e.correlation = static_cast<std::int64_t>(s.correlationId);
      std::string args = "{\"cuda_sync_kind\": ";
      detail::appendJsonString(args, syncKindName(s.kind));
      if (s.kind == SyncKind::EventSynchronize || s.kind == SyncKind::StreamWaitEvent) {
        args += ", \"wait_on_cuda_event_id\": ";
        detail::appendInt(args, s.eventId);
      }
      args += ", \"stream\": ";
      detail::appendInt(args, stream);
      args += ", \"correlation\": ";
      detail::appendInt(args, static_cast<std::int64_t>(s.correlationId));
      args += ", \"device\": ";
      detail::appendInt(args, dev);
      args += ", \"context\": ";
      detail::appendInt(args, s.contextId);
      args += "}";
      e.args = arena_->add(args);
      b_.addComplete(e);
    }
  }

  // One lane per thread CUPTI spent the time on: buffer requests of two
  // threads overlap, and one lane for all showed them as broken nesting.
  void addOverheads() {
    for (const auto& o : r_.overheads)
      b_.addComplete(slice(num(kOverheadPid), num(o.threadId), o.start, o.end, o.name, cat_.overhead));
  }

  void addFlows() {
    // Ordered by correlation id so the output does not depend on hashing.
    std::map<std::uint64_t, const ApiCallRecord*> ordered(launches_.begin(), launches_.end());
    for (const auto& [corr, call] : ordered) {
      const GpuOpRef& op = firstGpuOp_.at(corr);
      FlowEvent s;
      s.phase = 's';
      s.pid = cpuPid(call->processId);
      s.tid = num(call->threadId);
      s.ts = clock_.at(call->start);
      s.name = cat_.flow;
      s.category = cat_.flow;
      s.id = corr;
      b_.addFlow(s);
      FlowEvent f = s;
      f.phase = 'f';
      f.pid = num(op.device);
      f.tid = num(op.stream);
      f.ts = clock_.at(op.start);
      f.bindEnclosing = true;
      b_.addFlow(f);
      events_ += 2;
    }
  }

  void addMetadata() {
    TraceMetadata& md = b_.metadata();
    md.baseTimeNanoseconds = clock_.base;
    md.displayTimeUnit = "ms";
    for (const auto& d : r_.devices) md.devices.push_back(devicePropertiesOf(d));
    auto key = [&md](std::string k, std::string v) { md.otherKeys.emplace_back(std::move(k), std::move(v)); };
    key("schemaVersion", "1");
    if (r_.cudaDriverVersion) key("cuda_driver_version", std::to_string(r_.cudaDriverVersion));
    if (r_.cudaRuntimeVersion) key("cuda_runtime_version", std::to_string(r_.cudaRuntimeVersion));
    if (r_.cuptiVersion) key("cupti_version", std::to_string(r_.cuptiVersion));
    auto text = [](std::string_view s) {
      std::string out;
      detail::appendJsonString(out, s);
      return out;
    };
    if (!r_.command.empty()) key("gapscope_command", text(r_.command));
    if (r_.distributed.known()) md.distributedInfoJson = distributedInfoJson(r_.distributed);
    if (!r_.workload.empty()) {
      key("gapscope_workload", text(r_.workload));
      key("gapscope_variant", text(r_.variant));
      key("gapscope_size", std::to_string(r_.size));
      key("gapscope_steps", std::to_string(r_.steps));
    }
    std::vector<ImportIssue> issues = r_.issues;
    if (r_.droppedRecords > 0) {
      issues.push_back(ImportIssue{"cupti_dropped_records", Severity::Warning, r_.droppedRecords, 0,
                                   "CUPTI dropped activity records: the buffer pool was full", false});
    }
    for (const auto& issue : issues) b_.issues().add(issue.name, issue.severity, 0, issue.description, issue.count);
    if (!issues.empty()) key(std::string(io::kRecordingIssuesKey), io::recordingIssuesJson(issues));
  }

  // As torch.profiler names the fields; only those the process knew.
  static std::string distributedInfoJson(const DistributedRank& d) {
    std::string j = "{";
    auto field = [&j](const char* k, std::int32_t v) {
      if (v < 0) return;
      j += j.size() > 1 ? ", \"" : "\"";
      j += k;
      j += "\": ";
      detail::appendInt(j, v);
    };
    field("rank", d.rank);
    field("world_size", d.worldSize);
    field("local_rank", d.localRank);
    return j + "}";
  }

  static DeviceProperties devicePropertiesOf(const DeviceInfo& d) {
    DeviceProperties p;
    p.id = d.id;
    p.name = d.name;
    p.numSms = d.numSms;
    p.computeMajor = d.computeMajor;
    p.computeMinor = d.computeMinor;
    p.maxThreadsPerMultiprocessor = d.maxThreadsPerMultiprocessor;
    p.regsPerMultiprocessor = d.regsPerMultiprocessor;
    p.sharedMemPerMultiprocessor = d.sharedMemPerMultiprocessor;
    p.totalGlobalMem = d.totalGlobalMem;
    std::string j = "{\"id\": ";
    auto field = [&j](const char* k, std::int64_t v) {
      j += ", \"";
      j += k;
      j += "\": ";
      detail::appendInt(j, v);
    };
    detail::appendInt(j, d.id);
    j += ", \"name\": ";
    detail::appendJsonString(j, d.name);
    field("totalGlobalMem", d.totalGlobalMem);
    field("computeMajor", d.computeMajor);
    field("computeMinor", d.computeMinor);
    field("maxThreadsPerBlock", d.maxThreadsPerBlock);
    field("maxThreadsPerMultiprocessor", d.maxThreadsPerMultiprocessor);
    field("regsPerBlock", d.regsPerBlock);
    field("warpSize", d.warpSize);
    field("sharedMemPerBlock", d.sharedMemPerBlock);
    field("numSms", d.numSms);
    field("regsPerMultiprocessor", d.regsPerMultiprocessor);
    field("sharedMemPerBlockOptin", d.sharedMemPerBlockOptin);
    field("sharedMemPerMultiprocessor", d.sharedMemPerMultiprocessor);
    j += "}";
    p.rawJson = std::move(j);
    return p;
  }

  const RecordSet& r_;
  RecordClock clock_;
  std::shared_ptr<detail::ArgsArena> arena_;
  TraceBuilder b_;
  Categories cat_{};
  std::uint64_t events_ = 0;
  std::unordered_map<std::uint32_t, const DeviceInfo*> devices_;
  std::unordered_map<std::uint32_t, std::uint32_t> contextDevice_;
  std::set<std::pair<std::uint32_t, std::uint32_t>> streams_;  // (device, stream) with GPU ops
  std::unordered_map<std::uint64_t, GpuOpRef> firstGpuOp_;      // by correlation id
  std::unordered_map<std::uint64_t, const ApiCallRecord*> launches_;
  std::unordered_map<std::uint64_t, const ApiCallRecord*> callsByCorrelation_;
};

}  // namespace

std::int64_t firstRecordWallClock(const RecordSet& r) {
  const std::uint64_t first = earliestTimestamp(r);
  return r.wallClockAtAnchor == 0 || first == 0 ? 0 : wallAt(r, first);
}

Trace convertToTrace(const RecordSet& records) { return Converter(records).run(); }

}  // namespace gapscope::gpu
