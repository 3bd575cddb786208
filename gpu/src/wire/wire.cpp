// Frames <-> records. Each record's fields are listed once (fields()), and
// the same list writes and reads them.
#include "gapscope/gpu/wire.h"

#include <concepts>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

namespace gapscope::gpu::wire {

namespace {

constexpr std::size_t kHeaderBytes = 5;                       // u32 length + u8 type
constexpr std::uint32_t kMaxPayload = std::uint32_t{64} << 20;  // a sane bound for one record

template <class T, class U>
concept Like = std::same_as<std::remove_const_t<T>, U>;

// --- writing ---
struct Put {
  std::string& out;
  template <class T>
  void one(const T& v) {
    if constexpr (std::is_enum_v<T>) {
      one(static_cast<std::underlying_type_t<T>>(v));
    } else if constexpr (std::is_same_v<T, bool>) {
      one(static_cast<std::uint8_t>(v ? 1 : 0));
    } else if constexpr (std::is_same_v<T, std::string>) {
      one(static_cast<std::uint32_t>(v.size()));
      out.append(v);
    } else {
      static_assert(std::is_arithmetic_v<T>);
      char bytes[sizeof(T)];
      std::memcpy(bytes, &v, sizeof(T));
      out.append(bytes, sizeof(T));
    }
  }
  template <class... T>
  void operator()(const T&... v) {
    (one(v), ...);
  }
  bool more() const { return true; }  // the optional trailing fields are always written
};

// --- reading ---
struct Get {
  std::string_view in;
  bool ok = true;
  template <class T>
  void one(T& v) {
    if constexpr (std::is_enum_v<T>) {
      std::underlying_type_t<T> u{};
      one(u);
      v = static_cast<T>(u);
    } else if constexpr (std::is_same_v<T, bool>) {
      std::uint8_t u = 0;
      one(u);
      v = u != 0;
    } else if constexpr (std::is_same_v<T, std::string>) {
      std::uint32_t n = 0;
      one(n);
      if (!ok || n > in.size()) return void(ok = false);
      v.assign(in.data(), n);
      in.remove_prefix(n);
    } else {
      if (in.size() < sizeof(T)) return void(ok = false);
      std::memcpy(&v, in.data(), sizeof(T));
      in.remove_prefix(sizeof(T));
    }
  }
  template <class... T>
  void operator()(T&... v) {
    (one(v), ...);
  }
  bool more() const { return ok && !in.empty(); }  // optional trailing fields follow
};

// --- the field lists ---
template <class F, Like<ProcessHello> R>
void fields(F& f, R& r) {
  f(r.processId, r.name, r.commandLine, r.wallClockAtAnchor, r.clockAnchor, r.cudaDriverVersion,
    r.cudaRuntimeVersion, r.cuptiVersion);
  // Added later, so last and optional: older hellos end before them.
  if (f.more()) f(r.distributed.rank, r.distributed.worldSize, r.distributed.localRank);
}
template <class F, Like<DeviceInfo> R>
void fields(F& f, R& r) {
  f(r.id, r.name, r.computeMajor, r.computeMinor, r.numSms, r.warpSize, r.maxThreadsPerBlock,
    r.maxThreadsPerMultiprocessor, r.maxBlocksPerMultiprocessor, r.regsPerBlock, r.regsPerMultiprocessor,
    r.sharedMemPerBlock, r.sharedMemPerBlockOptin, r.sharedMemPerMultiprocessor, r.reservedSharedMemPerBlock,
    r.totalGlobalMem, r.l2CacheSize);
}
template <class F, Like<ApiCallRecord> R>
void fields(F& f, R& r) {
  f(r.domain, r.name, r.cbid, r.start, r.end, r.processId, r.threadId, r.correlationId, r.returnValue);
}
template <class F, class R>
void placeFields(F& f, R& r) {
  f(r.start, r.end, r.deviceId, r.contextId, r.streamId, r.correlationId);
}
template <class F, Like<KernelRecord> R>
void fields(F& f, R& r) {
  placeFields(f, r);
  f(r.name, r.grid[0], r.grid[1], r.grid[2], r.block[0], r.block[1], r.block[2], r.registersPerThread,
    r.staticSharedMemory, r.dynamicSharedMemory, r.graphId, r.graphNodeId);
}
template <class F, Like<MemcpyRecord> R>
void fields(F& f, R& r) {
  placeFields(f, r);
  f(r.bytes, r.copyKind, r.srcKind, r.dstKind, r.graphId);
}
template <class F, Like<MemsetRecord> R>
void fields(F& f, R& r) {
  placeFields(f, r);
  f(r.bytes, r.value, r.memoryKind, r.graphId);
}
template <class F, Like<SyncRecord> R>
void fields(F& f, R& r) {
  f(r.kind, r.start, r.end, r.correlationId, r.contextId, r.deviceId, r.streamId, r.eventId);
}
template <class F, Like<OverheadRecord> R>
void fields(F& f, R& r) {
  f(r.name, r.start, r.end, r.threadId);
}
template <class F, Like<HostRange> R>
void fields(F& f, R& r) {
  f(r.kind, r.name, r.start, r.end, r.processId, r.threadId);
}
template <class F, Like<CaptureMark> R>
void fields(F& f, R& r) {
  f(r.open, r.at);
}
template <class F, Like<ChannelStats> R>
void fields(F& f, R& r) {
  f(r.cuptiDropped, r.channelDropped);
}

template <class R>
void frame(std::string& out, FrameType type, const R& r) {
  std::size_t at = out.size();
  out.append(kHeaderBytes, '\0');
  Put put{out};
  fields(put, r);
  auto length = static_cast<std::uint32_t>(out.size() - at - kHeaderBytes);
  std::memcpy(&out[at], &length, sizeof length);
  out[at + 4] = static_cast<char>(type);
}

template <class R>
bool read(std::string_view payload, R& r) {
  Get get{payload};
  fields(get, r);
  return get.ok;
}

template <class R>
bool readInto(std::string_view payload, std::vector<R>& v) {
  R r;
  if (!read(payload, r)) return false;
  v.push_back(std::move(r));
  return true;
}

void textFrame(std::string& out, FrameType type, std::string_view text) {
  auto length = static_cast<std::uint32_t>(text.size());
  char header[kHeaderBytes];
  std::memcpy(header, &length, sizeof length);
  header[4] = static_cast<char>(type);
  out.append(header, kHeaderBytes);
  out.append(text);
}

// A whole decimal number >= 0 that fits, else -1.
std::int32_t rankVariable(const char* name) {
  const char* v = std::getenv(name);
  if (!v || *v < '0' || *v > '9') return -1;
  char* end = nullptr;
  long long n = std::strtoll(v, &end, 10);
  return *end == '\0' && n <= std::numeric_limits<std::int32_t>::max() ? static_cast<std::int32_t>(n) : -1;
}

}  // namespace

DistributedRank distributedRankFromEnvironment() {
  return DistributedRank{rankVariable("RANK"), rankVariable("WORLD_SIZE"), rankVariable("LOCAL_RANK")};
}

void encode(std::string& out, const ProcessHello& v) { frame(out, FrameType::Hello, v); }
void encode(std::string& out, const DeviceInfo& v) { frame(out, FrameType::Device, v); }
void encode(std::string& out, const ApiCallRecord& v) { frame(out, FrameType::ApiCall, v); }
void encode(std::string& out, const KernelRecord& v) { frame(out, FrameType::Kernel, v); }
void encode(std::string& out, const MemcpyRecord& v) { frame(out, FrameType::Memcpy, v); }
void encode(std::string& out, const MemsetRecord& v) { frame(out, FrameType::Memset, v); }
void encode(std::string& out, const SyncRecord& v) { frame(out, FrameType::Sync, v); }
void encode(std::string& out, const OverheadRecord& v) { frame(out, FrameType::Overhead, v); }
void encode(std::string& out, const HostRange& v) { frame(out, FrameType::Range, v); }
void encode(std::string& out, const CaptureMark& v) { frame(out, FrameType::Capture, v); }
void encode(std::string& out, const ChannelStats& v) { frame(out, FrameType::Stats, v); }
void encodeNote(std::string& out, std::string_view text) { textFrame(out, FrameType::Note, text); }
void encodeBye(std::string& out) { textFrame(out, FrameType::Bye, {}); }

std::uint64_t encodeRecords(std::string& out, const RecordSet& r) {
  std::uint64_t n = 0;
  auto all = [&](const auto& v) {
    for (const auto& x : v) encode(out, x);
    n += v.size();
  };
  all(r.apiCalls);
  all(r.kernels);
  all(r.memcpys);
  all(r.memsets);
  all(r.syncs);
  all(r.overheads);
  all(r.ranges);
  return n;
}

bool Decoder::feed(const char* data, std::size_t size) {
  if (!error_.empty()) return false;
  buffer_.append(data, size);
  while (buffer_.size() - offset_ >= kHeaderBytes) {
    std::uint32_t length = 0;
    std::memcpy(&length, buffer_.data() + offset_, sizeof length);
    if (length > kMaxPayload) {
      error_ = "frame " + std::to_string(stream_.frames + 1) + " claims " + std::to_string(length) + " bytes";
      return false;
    }
    if (buffer_.size() - offset_ < kHeaderBytes + length) break;
    auto type = static_cast<FrameType>(static_cast<std::uint8_t>(buffer_[offset_ + 4]));
    std::string_view payload(buffer_.data() + offset_ + kHeaderBytes, length);
    if (!apply(type, payload)) {
      error_ = "frame " + std::to_string(stream_.frames + 1) + " (type " +
               std::to_string(static_cast<int>(type)) + ") is malformed";
      return false;
    }
    ++stream_.frames;
    offset_ += kHeaderBytes + length;
  }
  // Keep the buffer small: drop what was consumed once it is most of it.
  if (offset_ > 0 && offset_ * 2 >= buffer_.size()) {
    buffer_.erase(0, offset_);
    offset_ = 0;
  }
  return true;
}

bool Decoder::apply(FrameType type, std::string_view payload) {
  RecordSet& r = stream_.records;
  switch (type) {
    case FrameType::Hello: {
      if (!read(payload, stream_.hello)) return false;
      stream_.saidHello = true;
      r.processId = stream_.hello.processId;
      r.processName = stream_.hello.name;
      r.wallClockAtAnchor = stream_.hello.wallClockAtAnchor;
      r.clockAnchor = stream_.hello.clockAnchor;
      r.cudaDriverVersion = stream_.hello.cudaDriverVersion;
      r.cudaRuntimeVersion = stream_.hello.cudaRuntimeVersion;
      r.cuptiVersion = stream_.hello.cuptiVersion;
      r.distributed = stream_.hello.distributed;
      return true;
    }
    case FrameType::Device: return readInto(payload, r.devices);
    case FrameType::ApiCall: return readInto(payload, r.apiCalls);
    case FrameType::Kernel: return readInto(payload, r.kernels);
    case FrameType::Memcpy: return readInto(payload, r.memcpys);
    case FrameType::Memset: return readInto(payload, r.memsets);
    case FrameType::Sync: return readInto(payload, r.syncs);
    case FrameType::Overhead: return readInto(payload, r.overheads);
    case FrameType::Range: return readInto(payload, r.ranges);
    case FrameType::Capture: return readInto(payload, stream_.captureMarks);
    case FrameType::Stats: return read(payload, stream_.stats);
    case FrameType::Note: stream_.notes.emplace_back(payload); return true;
    case FrameType::Bye: stream_.saidBye = true; return true;
  }
  return true;  // a frame type this build does not know: skipped
}

}  // namespace gapscope::gpu::wire
