// The reference analysis: the definitions of docs/gaps.md, one at a time.
#include "gap_reference.h"
#include "gapscope/format/duration.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <string_view>

#include "gap_reference_parts.h"

namespace gapscope::gaps_test::reference {

using namespace analysis;

CpuSide readCpuSide(const Trace& trace) {
  CpuSide cpu;
  // cuda_sync markers: "Stream Wait Event" names the waiting stream, the
  // others make their call a blocking one.
  std::map<std::int64_t, std::int64_t> waitStream;
  std::set<std::int64_t> blockingIds;
  for (const Track& t : trace.tracks) {
    for (const Slice* s = trace.trackBegin(t); s != trace.trackEnd(t); ++s) {
      if (trace.str(s->category) != "cuda_sync" || s->correlation == kNoCorrelation) continue;
      if (trace.str(s->name).find("Wait") != std::string_view::npos)
        waitStream.emplace(s->correlation, t.kind == TrackKind::GpuStream ? t.stream : t.tid.num);
      else
        blockingIds.insert(s->correlation);
    }
  }
  for (std::uint32_t ti = 0; ti < trace.tracks.size(); ++ti) {
    const Track& t = trace.tracks[ti];
    if (t.kind != TrackKind::CpuThread) continue;
    for (std::uint32_t i = t.firstSlice; i < t.firstSlice + t.sliceCount; ++i) {
      const Slice& s = trace.slices[i];
      std::string_view name = trace.str(s.name);
      if (s.kind == SliceKind::UserAnnotation && name.substr(0, 13) == "ProfilerStep#") cpu.steps.push_back(i);
      if (s.kind != SliceKind::CudaRuntime && s.kind != SliceKind::CudaDriver) continue;
      LaunchKind kind = launchKindForName(name);
      if (s.correlation != kNoCorrelation) {
        cpu.byCorrelation.emplace(s.correlation, static_cast<std::uint32_t>(cpu.calls.size()));
        cpu.calls.push_back({s.start, s.end(), i, ti, s.name, kind});
      } else if (kind != LaunchKind::None) {
        ++cpu.launchCallsWithoutCorrelation;
      }
      SyncKind sync = syncKindForName(name);
      if (sync == SyncKind::StreamWaitEvent) {
        auto it = waitStream.find(s.correlation);
        cpu.waits[ti].push_back({s.start, i, it == waitStream.end() ? kAnyStream : it->second});
      } else if (sync != SyncKind::None || blockingIds.count(s.correlation)) {
        cpu.syncs[ti].push_back({s.start, s.end(), i});
      }
    }
  }
  std::stable_sort(cpu.steps.begin(), cpu.steps.end(), [&](std::uint32_t a, std::uint32_t b) {
    return trace.slices[a].start < trace.slices[b].start;
  });
  return cpu;
}

GpuSide readGpuSide(const Trace& trace, const CpuSide& cpu) {
  GpuSide gpu;
  std::map<std::pair<std::int32_t, std::int64_t>, std::vector<std::uint32_t>> tracks;
  for (std::uint32_t ti = 0; ti < trace.tracks.size(); ++ti)
    if (trace.tracks[ti].kind == TrackKind::GpuStream)
      tracks[{trace.tracks[ti].device, trace.tracks[ti].stream}].push_back(ti);
  for (const auto& [key, list] : tracks) {
    Stream st{key.first, key.second, {}, {}};
    for (std::uint32_t ti : list) {
      const Track& t = trace.tracks[ti];
      for (std::uint32_t i = t.firstSlice; i < t.firstSlice + t.sliceCount; ++i) {
        const Slice& s = trace.slices[i];
        if (!isGpuActivity(s.kind)) continue;
        std::uint32_t call = kNoIndex;
        if (s.correlation != kNoCorrelation) {
          ++gpu.opsWithCorrelation;
          auto it = cpu.byCorrelation.find(s.correlation);
          if (it == cpu.byCorrelation.end())
            ++gpu.orphanOps;
          else
            call = it->second;
        }
        st.ops.push_back({s.start, s.end(), i, call});
      }
    }
    if (st.ops.empty()) continue;
    // As a track is ordered: by start, the longer first.
    std::stable_sort(st.ops.begin(), st.ops.end(), [](const Op& a, const Op& b) {
      return a.start != b.start ? a.start < b.start : a.end - a.start > b.end - b.start;
    });
    st.blocks = mergeIntoBlocks(st.ops.begin(), st.ops.end());
    gpu.streams.push_back(std::move(st));
  }
  for (std::size_t si = 0; si < gpu.streams.size(); ++si) {
    if (gpu.devices.empty() || gpu.devices.back().device != gpu.streams[si].device)
      gpu.devices.push_back({gpu.streams[si].device, {}, {}, 0});
    gpu.devices.back().streams.push_back(si);
    gpu.devices.back().ops += gpu.streams[si].ops.size();
  }
  for (Device& d : gpu.devices) {
    // The streams' blocks in start order (at equal starts, the stream
    // listed first), merged again.
    std::vector<Block> all;
    for (std::size_t si : d.streams) all.insert(all.end(), gpu.streams[si].blocks.begin(), gpu.streams[si].blocks.end());
    std::stable_sort(all.begin(), all.end(), [](const Block& a, const Block& b) { return a.start < b.start; });
    d.blocks = mergeIntoBlocks(all.begin(), all.end());
  }
  return gpu;
}

Gap classify(const CpuSide& cpu, const GapOptions& options, const Block& before, const Block& after,
             const std::int64_t* stream) {
  Gap g;
  g.start = before.end;
  g.dur = after.start - before.end;
  g.before = before.lastSlice;
  g.after = after.firstSlice;
  bool shortGap = g.dur < options.htaKernelWaitNs;
  if (after.firstCall == kNoIndex) {
    g.cause = GapCause::Other;
    g.hta = shortGap ? HtaIdleKind::KernelWait : HtaIdleKind::Other;
    return g;
  }
  const Call& launch = cpu.calls[after.firstCall];
  g.launch = launch.slice;
  g.launchTrack = launch.track;
  g.hta = launch.start > g.start ? HtaIdleKind::HostWait : shortGap ? HtaIdleKind::KernelWait : HtaIdleKind::Other;
  // The blocking call the thread entered last before the gap began.
  const SyncCall* sync = nullptr;
  auto syncs = cpu.syncs.find(launch.track);
  if (syncs != cpu.syncs.end())
    for (const SyncCall& s : syncs->second)
      if (s.start <= g.start) sync = &s;
  if (sync && sync->end + options.syncSlackNs >= g.start && sync->start <= launch.start) {
    g.cause = GapCause::Synchronization;
    g.syncCall = sync->slice;
    return g;
  }
  bool sameLaunch = before.lastCall == after.firstCall;
  if (launch.start >= g.start || (launch.end > g.start && !sameLaunch)) {
    g.cause = GapCause::LaunchOverhead;
    return g;
  }
  g.cause = GapCause::Queued;
  auto waits = cpu.waits.find(launch.track);
  if (stream && !sameLaunch && waits != cpu.waits.end()) {
    TimeNs from = before.lastCall != kNoIndex ? cpu.calls[before.lastCall].start : launch.start;
    for (const WaitCall& w : waits->second) {
      if (w.start >= from && w.start <= launch.start && (w.stream == kAnyStream || w.stream == *stream)) {
        g.cause = GapCause::Synchronization;
        g.syncCall = w.slice;
        break;
      }
    }
  }
  return g;
}

namespace {

UtilizationStats statsOf(const std::vector<Block>& blocks, std::int32_t device, std::int64_t stream,
                         std::uint64_t ops) {
  UtilizationStats s;
  s.device = device;
  s.stream = stream;
  s.gpuOps = ops;
  s.activeStart = blocks.front().start;
  s.activeEnd = blocks.back().end;
  for (const Block& b : blocks) s.busyNs += b.end - b.start;
  return s;
}

// Every gap between the blocks: counted in `stats`, listed (with its CPU
// ops) when long enough, and handed to `also`.
template <typename Also>
void gapsOf(SelfTimes& selfTimes, const CpuSide& cpu, const GapOptions& options,
            const std::vector<Block>& blocks, std::int32_t device, const std::int64_t* stream,
            UtilizationStats& stats, ReferenceAnalysis& out, Also&& also) {
  for (std::size_t i = 0; i + 1 < blocks.size(); ++i) {
    Gap g = classify(cpu, options, blocks[i], blocks[i + 1], stream);
    g.device = device;
    g.stream = stream ? *stream : -1;
    stats.idle[g.cause] += g.dur;
    stats.hta[g.hta] += g.dur;
    ++stats.gapCount;
    also(g);
    if (g.dur < options.minGapNs) {
      ++out.unlistedGaps;
      continue;
    }
    ReferenceGap listed{g, {}};
    if (options.blameCpuOps && g.launchTrack != kNoIndex)
      listed.cpuOps = largestFirst(selfTimes(g.launchTrack, g.start, g.end()), options.maxCpuOpsPerGap);
    out.gaps.push_back(std::move(listed));
  }
}

std::int64_t stepNumber(std::string_view name) {
  std::int64_t n = -1;
  auto hash = name.find('#');
  if (hash != std::string_view::npos) std::from_chars(name.data() + hash + 1, name.data() + name.size(), n);
  return n;
}

// The step whose annotation (the last one begun by then) is open at t.
std::size_t stepAt(const Trace& trace, const std::vector<std::uint32_t>& steps, TimeNs t) {
  auto it = std::upper_bound(steps.begin(), steps.end(), t,
                             [&](TimeNs v, std::uint32_t s) { return v < trace.slices[s].start; });
  if (it == steps.begin() || t >= trace.slices[*(it - 1)].end()) return steps.size();
  return static_cast<std::size_t>(it - steps.begin()) - 1;
}

// The part of each interval inside [lo, hi), for intervals sorted by start
// that do not overlap.
template <typename T, typename End, typename Add>
void clipEach(const std::vector<T>& list, TimeNs lo, TimeNs hi, End&& end, Add&& add) {
  auto it = std::lower_bound(list.begin(), list.end(), lo, [&](const T& x, TimeNs v) { return end(x) <= v; });
  for (; it != list.end() && it->start < hi; ++it) {
    TimeNs clip = std::min(end(*it), hi) - std::max(it->start, lo);
    if (clip > 0) add(*it, clip);
  }
}

void fillSteps(const Trace& trace, const CpuSide& cpu, const GpuSide& gpu,
               const std::vector<std::vector<Gap>>& deviceGaps, ReferenceAnalysis& out) {
  // Each op belongs to the step open when its launch call began.
  std::vector<std::vector<UtilizationStats>> windows(cpu.steps.size(), std::vector<UtilizationStats>(gpu.devices.size()));
  for (auto& perDevice : windows) {
    for (auto& w : perDevice) {
      w.activeStart = std::numeric_limits<TimeNs>::max();
      w.activeEnd = std::numeric_limits<TimeNs>::min();
    }
  }
  for (std::size_t di = 0; di < gpu.devices.size(); ++di) {
    for (std::size_t si : gpu.devices[di].streams) {
      for (const Op& op : gpu.streams[si].ops) {
        if (op.call == kNoIndex) continue;
        std::size_t step = stepAt(trace, cpu.steps, cpu.calls[op.call].start);
        if (step == cpu.steps.size()) continue;
        UtilizationStats& w = windows[step][di];
        w.activeStart = std::min(w.activeStart, op.start);
        w.activeEnd = std::max(w.activeEnd, op.end);
        ++w.gpuOps;
      }
    }
  }
  // A window reaches back to the step's CPU start or to where the device's
  // previous step window ended, whichever is later (never after the step's
  // own first op, never before the device's first op).
  std::vector<TimeNs> lastEnd(gpu.devices.size(), std::numeric_limits<TimeNs>::min());
  for (std::size_t i = 0; i < cpu.steps.size(); ++i) {
    const Slice& a = trace.slices[cpu.steps[i]];
    ReferenceStep step{a.name, stepNumber(trace.str(a.name)), cpu.steps[i], a.dur, false, {}};
    for (std::size_t di = 0; di < gpu.devices.size(); ++di) {
      UtilizationStats s = windows[i][di];
      if (s.gpuOps == 0) continue;
      const TimeNs opsStart = s.activeStart;
      TimeNs from = a.start > lastEnd[di] ? a.start : lastEnd[di];
      if (from > opsStart) from = opsStart;
      const TimeNs deviceStart = gpu.devices[di].blocks.empty() ? from : gpu.devices[di].blocks.front().start;
      if (from < deviceStart) from = deviceStart;
      s.activeStart = from;
      if (s.activeEnd > lastEnd[di]) lastEnd[di] = s.activeEnd;
      s.device = gpu.devices[di].device;
      clipEach(gpu.devices[di].blocks, s.activeStart, s.activeEnd, [](const Block& b) { return b.end; },
               [&](const Block&, TimeNs clip) { s.busyNs += clip; });
      clipEach(deviceGaps[di], s.activeStart, s.activeEnd, [](const Gap& g) { return g.end(); },
               [&](const Gap& g, TimeNs clip) {
        s.idle[g.cause] += clip;
        s.hta[g.hta] += clip;
        ++s.gapCount;
      });
      step.devices.push_back(s);
    }
    out.steps.push_back(std::move(step));
  }
  // A first step over five times the others' (lower) median is a warm-up.
  if (out.steps.size() >= 3) {
    std::vector<TimeNs> others;
    for (std::size_t i = 1; i < out.steps.size(); ++i) others.push_back(out.steps[i].cpuNs);
    std::sort(others.begin(), others.end());
    const TimeNs median = others[(others.size() - 1) / 2];
    out.steps[0].warmUp = median > 0 && out.steps[0].cpuNs / 5 > median;
  }
}

// The steps' devices when they hold GPU work, else the whole trace's.
void fillVerdict(const GapOptions& options, ReferenceAnalysis& out) {
  TimeNs active = 0, busy = 0;
  IdleByCause idle;
  auto add = [&](const UtilizationStats& d) {
    active += d.activeNs();
    busy += d.busyNs;
    for (std::size_t c = 0; c < kGapCauseCount; ++c) idle.ns[c] += d.idle.ns[c];
  };
  for (const auto& step : out.steps)
    if (!step.warmUp)
      for (const auto& d : step.devices) add(d);
  if (active <= 0) {
    active = busy = 0;
    idle = {};
    for (const auto& d : out.devices) add(d);
  }
  out.estimatedSavingNs = idle[GapCause::LaunchOverhead];
  if (active <= 0) {
    out.verdict = VerdictKind::GpuBound;
    out.utilization = 1.0;
    return;
  }
  out.utilization = static_cast<double>(busy) / static_cast<double>(active);
  if (out.utilization >= options.busyVerdictThreshold) {
    out.verdict = VerdictKind::GpuBound;
    return;
  }
  std::size_t top = 0;
  for (std::size_t c = 1; c < kGapCauseCount; ++c)
    if (idle.ns[c] > idle.ns[top]) top = c;
  const VerdictKind byCause[] = {VerdictKind::LaunchOverheadBound, VerdictKind::SynchronizationBound,
                                 VerdictKind::QueueBound, VerdictKind::UnexplainedIdle};
  out.verdict = byCause[top];
}

}  // namespace
}  // namespace gapscope::gaps_test::reference

namespace gapscope::gaps_test {

ReferenceAnalysis referenceGaps(const Trace& trace, const analysis::GapOptions& options) {
  using namespace reference;
  ReferenceAnalysis out;
  CpuSide cpu = readCpuSide(trace);
  GpuSide gpu = readGpuSide(trace, cpu);
  if (gpu.streams.empty()) return out;
  out.hasGpuActivity = true;
  SelfTimes selfTimes(trace);
  std::vector<std::vector<analysis::Gap>> deviceGaps(gpu.devices.size());
  std::vector<std::vector<analysis::CpuOpBlame>> overhead;
  for (std::size_t di = 0; di < gpu.devices.size(); ++di) {
    const Device& d = gpu.devices[di];
    out.devices.push_back(statsOf(d.blocks, d.device, -1, d.ops));
    gapsOf(selfTimes, cpu, options, d.blocks, d.device, nullptr, out.devices.back(), out, [&](const analysis::Gap& g) {
      deviceGaps[di].push_back(g);
      if (options.blameCpuOps && g.cause == analysis::GapCause::LaunchOverhead && g.launchTrack != kNoIndex)
        overhead.push_back(selfTimes(g.launchTrack, g.start, g.end()));
    });
  }
  for (const Stream& st : gpu.streams) {
    out.streams.push_back(statsOf(st.blocks, st.device, st.stream, st.ops.size()));
    gapsOf(selfTimes, cpu, options, st.blocks, st.device, &st.stream, out.streams.back(), out,
           [](const analysis::Gap&) {});
  }
  out.overheadCpuOps = largestFirst(sumByName(overhead), 0);
  fillLaunches(cpu, gpu, options, out);
  if (!options.keepLaunches) out.launches.clear();
  if (options.perStep) fillSteps(trace, cpu, gpu, deviceGaps, out);
  fillVerdict(options, out);
  if (gpu.opsWithCorrelation == 0)
    out.notes.push_back(
        "no correlation ids: nothing links launch calls to GPU ops, so every gap's cause is 'other'");
  if (gpu.orphanOps > 0)
    out.notes.push_back(std::to_string(gpu.orphanOps) + " GPU ops have a correlation id that matches no launch call");
  if (cpu.launchCallsWithoutCorrelation > 0)
    out.notes.push_back(std::to_string(cpu.launchCallsWithoutCorrelation) + " launch calls carry no correlation id");
  if (!out.steps.empty() && out.steps[0].warmUp)
    out.notes.push_back("the first step lasted " +
                        format::formatDuration(out.steps[0].cpuNs, format::DurationStyle::Verdict) +
                        ", over 5 times the others' median (start-up or compilation): it is left out of the "
                        "verdict and every total over the steps");
  return out;
}

}  // namespace gapscope::gaps_test
