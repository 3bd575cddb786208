// The byte format between the injection library (inside the recorded
// program) and the recorder: a stream of frames, each one record of
// records.h or a control message. Both ends are built together and run on
// the same machine, so fields are native-endian and fixed-width; every frame
// carries its length, so a reader can skip what it does not know.
//
//   frame   = u32 payload length, u8 FrameType, payload
//   payload = the fields of the record in the order fields() lists them;
//             strings as u32 length + bytes
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gapscope/gpu/records.h"

namespace gapscope::gpu::wire {

enum class FrameType : std::uint8_t {
  Hello = 1,   // first frame of a connection: who is talking (ProcessHello)
  Device,      // DeviceInfo
  ApiCall,     // ApiCallRecord
  Kernel,      // KernelRecord
  Memcpy,      // MemcpyRecord
  Memset,      // MemsetRecord
  Sync,        // SyncRecord
  Overhead,    // OverheadRecord
  Range,       // HostRange (NVTX)
  Capture,     // CaptureMark: a capture range opened or closed
  Stats,       // ChannelStats: cumulative drop counts, latest wins
  Note,        // a line of text for the user (e.g. a feature that is unavailable)
  Bye,         // the process flushed everything and is ending cleanly
};

struct ProcessHello {
  std::uint32_t processId = 0;
  std::string name;         // e.g. "python3"
  std::string commandLine;  // argv joined by spaces
  std::int64_t wallClockAtAnchor = 0;  // ns since the epoch at CUPTI timestamp clockAnchor
  std::uint64_t clockAnchor = 0;
  std::int32_t cudaDriverVersion = 0;
  std::int32_t cudaRuntimeVersion = 0;
  std::int32_t cuptiVersion = 0;
  // Added after the fields above, at the payload's end: a hello without it
  // (an older injection library) still reads, with the rank unknown.
  DistributedRank distributed;
};

// RANK, WORLD_SIZE and LOCAL_RANK of this process's environment, for its
// hello; a variable that is unset or not a number >= 0 stays -1.
DistributedRank distributedRankFromEnvironment();

struct CaptureMark {
  bool open = true;        // true: capture from `at`; false: until `at`
  std::uint64_t at = 0;    // CUPTI timestamp
};

struct ChannelStats {
  std::uint64_t cuptiDropped = 0;    // records CUPTI dropped (its buffer pool was empty)
  std::uint64_t channelDropped = 0;  // records the channel to the recorder refused (full)
};

// Appends one frame to `out`.
void encode(std::string& out, const ProcessHello& v);
void encode(std::string& out, const DeviceInfo& v);
void encode(std::string& out, const ApiCallRecord& v);
void encode(std::string& out, const KernelRecord& v);
void encode(std::string& out, const MemcpyRecord& v);
void encode(std::string& out, const MemsetRecord& v);
void encode(std::string& out, const SyncRecord& v);
void encode(std::string& out, const OverheadRecord& v);
void encode(std::string& out, const HostRange& v);
void encode(std::string& out, const CaptureMark& v);
void encode(std::string& out, const ChannelStats& v);
void encodeNote(std::string& out, std::string_view text);
void encodeBye(std::string& out);

// Every record of `records` (not its process fields) as frames; returns how
// many records were written.
std::uint64_t encodeRecords(std::string& out, const RecordSet& records);

// What one connection delivered.
struct ProcessStream {
  ProcessHello hello;
  bool saidHello = false;
  bool saidBye = false;
  RecordSet records;  // processId, processName, clock and rank filled from the hello
  std::vector<CaptureMark> captureMarks;
  ChannelStats stats;
  std::vector<std::string> notes;
  std::uint64_t frames = 0;
};

// Reassembles frames from bytes as they arrive (any split) into a
// ProcessStream. A malformed frame stops it with an error; what came before
// stays.
class Decoder {
 public:
  // Returns false (and sets error()) when the bytes are not a valid stream.
  bool feed(const char* data, std::size_t size);
  const std::string& error() const { return error_; }
  // Bytes of an incomplete frame still waiting for the rest.
  std::size_t pendingBytes() const { return buffer_.size() - offset_; }
  ProcessStream& stream() { return stream_; }

 private:
  bool apply(FrameType type, std::string_view payload);

  std::string buffer_;
  std::size_t offset_ = 0;
  std::string error_;
  ProcessStream stream_;
};

}  // namespace gapscope::gpu::wire
