// Fabricated CUPTI records: one host thread running two steps, each with an
// op that launches a kernel through cudaLaunchKernel (which CUPTI also
// reports as an internal cuLaunchKernel), a cuBLAS-style direct
// cuLaunchKernelEx, and a cudaMemcpyAsync + cudaStreamSynchronize.
#pragma once

#include "gapscope/gpu/records.h"

namespace gapscope::gpu::fixture {

inline constexpr std::uint32_t kPid = 4242;
inline constexpr std::uint32_t kTid = 4243;
inline constexpr std::uint32_t kStream = 13;
// A CUPTI timestamp and the wall clock at the same instant.
inline constexpr std::uint64_t kAnchor = 5'000'000'000'000ull;
inline constexpr std::int64_t kWallAtAnchor = 1'790'857'026'123'456'789ll;

inline DeviceInfo h200() {
  DeviceInfo d;
  d.id = 0;
  d.name = "NVIDIA H200";
  d.computeMajor = 9;
  d.numSms = 132;
  d.warpSize = 32;
  d.maxThreadsPerBlock = 1024;
  d.maxThreadsPerMultiprocessor = 2048;
  d.maxBlocksPerMultiprocessor = 32;
  d.regsPerBlock = 65536;
  d.regsPerMultiprocessor = 65536;
  d.sharedMemPerBlock = 49152;
  d.sharedMemPerBlockOptin = 232448;
  d.sharedMemPerMultiprocessor = 233472;
  d.reservedSharedMemPerBlock = 1024;
  d.totalGlobalMem = 150109880320;
  return d;
}

inline ApiCallRecord api(ApiDomain domain, const char* name, std::uint64_t start, std::uint64_t end,
                         std::uint32_t corr) {
  ApiCallRecord a;
  a.domain = domain;
  a.name = name;
  a.cbid = domain == ApiDomain::Runtime ? 211 : 652;
  a.start = kAnchor + start;
  a.end = kAnchor + end;
  a.processId = kPid;
  a.threadId = kTid;
  a.correlationId = corr;
  return a;
}

inline KernelRecord kernel(const char* name, std::uint64_t start, std::uint64_t end, std::uint32_t corr) {
  KernelRecord k;
  k.name = name;
  k.start = kAnchor + start;
  k.end = kAnchor + end;
  k.deviceId = 0;
  k.contextId = 1;
  k.streamId = kStream;
  k.correlationId = corr;
  k.grid[0] = 64;
  k.grid[1] = k.grid[2] = 1;
  k.block[0] = 32;
  k.block[1] = 4;
  k.block[2] = 1;
  k.registersPerThread = 39;
  k.staticSharedMemory = 24;
  return k;
}

inline HostRange range(HostRangeKind kind, const char* name, std::uint64_t start, std::uint64_t end) {
  return HostRange{kind, name, kAnchor + start, kAnchor + end, kTid};
}

// Step s (0-based) occupies [s * 100000, s * 100000 + 90000) ns after the anchor.
inline RecordSet twoSteps() {
  RecordSet r;
  r.processId = kPid;
  r.processName = "gapscope-cli";
  r.devices.push_back(h200());
  r.clockAnchor = kAnchor;
  r.wallClockAtAnchor = kWallAtAnchor;
  r.cudaDriverVersion = 13000;
  r.cudaRuntimeVersion = 13000;
  r.cuptiVersion = 130001;
  for (std::uint64_t s = 0; s < 2; ++s) {
    std::uint64_t t = s * 100000;
    std::uint32_t c = static_cast<std::uint32_t>(10 * s + 10);
    r.ranges.push_back(range(HostRangeKind::Step, s == 0 ? "ProfilerStep#1" : "ProfilerStep#2", t, t + 90000));
    r.ranges.push_back(range(HostRangeKind::Op, "layer_norm", t + 1000, t + 20000));
    r.apiCalls.push_back(api(ApiDomain::Runtime, "cudaLaunchKernel", t + 2000, t + 12000, c));
    r.apiCalls.push_back(api(ApiDomain::Driver, "cuLaunchKernel", t + 3000, t + 11000, c + 100));
    r.kernels.push_back(kernel("layerNormKernel(float const*, float*, float const*, float const*, int)",
                               t + 14000, t + 16500, c));
    r.ranges.push_back(range(HostRangeKind::Op, "matmul", t + 21000, t + 40000));
    r.apiCalls.push_back(api(ApiDomain::Driver, "cuLaunchKernelEx", t + 22000, t + 30000, c + 1));
    r.kernels.push_back(kernel("nvjet_sm90_tst_64x8_64x16_1x4_h_bz_NNT", t + 31000, t + 33000, c + 1));
    r.apiCalls.push_back(api(ApiDomain::Runtime, "cudaMemcpyAsync", t + 41000, t + 45000, c + 2));
    MemcpyRecord m;
    m.start = kAnchor + t + 46000;
    m.end = kAnchor + t + 47000;
    m.contextId = 1;
    m.streamId = kStream;
    m.correlationId = c + 2;
    m.bytes = 4;
    m.copyKind = CopyKind::DtoH;
    m.srcKind = MemoryKind::Device;
    m.dstKind = MemoryKind::Pinned;
    r.memcpys.push_back(m);
    r.apiCalls.push_back(api(ApiDomain::Runtime, "cudaStreamSynchronize", t + 46000, t + 89000, c + 3));
    SyncRecord sync;
    sync.kind = SyncKind::StreamSynchronize;
    sync.start = kAnchor + t + 46500;
    sync.end = kAnchor + t + 88000;
    sync.correlationId = c + 3;
    sync.contextId = 1;
    sync.streamId = kStream;
    r.syncs.push_back(sync);
  }
  return r;
}

}  // namespace gapscope::gpu::fixture
