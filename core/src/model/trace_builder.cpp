// TraceBuilder: collecting events. finish() is in trace_finish.cpp.
#include "gapscope/model/trace_builder.h"

#include <algorithm>
#include <bit>
#include <utility>

#include "builder_impl.h"

namespace gapscope {

namespace detail {

std::uint32_t BuilderState::trackFor(ChromeId pid, ChromeId tid) {
  TrackKey key{pid, tid};
  if (lastTrack != kNoIndex && key == lastTrackKey) return lastTrack;
  std::swap(lastTrackKey, previousTrackKey);
  std::swap(lastTrack, previousTrack);
  if (lastTrack != kNoIndex && key == lastTrackKey) return lastTrack;
  lastTrackKey = key;
  auto it = trackIndex.find(key);
  if (it != trackIndex.end()) return lastTrack = it->second;
  auto id = static_cast<std::uint32_t>(tracks.size());
  tracks.push_back(RawTrack{key, kEmptyString, std::nullopt});
  trackIndex.emplace(key, id);
  processFor(pid);
  return lastTrack = id;
}

SliceKind BuilderState::kindOf(StringId category) {
  if (category >= kindByCategory.size()) kindByCategory.resize(strings.size(), -1);
  std::int8_t& k = kindByCategory[category];
  if (k < 0) k = static_cast<std::int8_t>(sliceKindForCategory(strings.view(category)));
  return static_cast<SliceKind>(k);
}

std::uint32_t KernelInfoSet::hashOf(const KernelInfo& k) {
  std::uint64_t h = 0;
  auto mix = [&h](std::uint64_t v) { h = (h ^ v) * 0x9E3779B97F4A7C15ull; };
  auto pair = [](std::int32_t a, std::int32_t b) {
    return static_cast<std::uint32_t>(a) | std::uint64_t{static_cast<std::uint32_t>(b)} << 32;
  };
  for (int i = 0; i < 3; ++i) mix(pair(k.grid[i], k.block[i]));
  mix(pair(k.registersPerThread, k.device));
  mix(static_cast<std::uint64_t>(k.sharedMemory));
  mix(static_cast<std::uint64_t>(k.stream));
  // The occupancy figures too: kernels of one grid differ in them.
  mix(std::bit_cast<std::uint32_t>(k.blocksPerSm) | std::uint64_t{std::bit_cast<std::uint32_t>(k.warpsPerSm)} << 32);
  mix(std::bit_cast<std::uint32_t>(k.occupancyPct));
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}

void KernelInfoSet::grow() {
  std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(std::max<std::size_t>(64, slots_.size() * 2)));
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.index == kNoIndex) continue;
    std::size_t at = s.hash & mask;
    while (slots_[at].index != kNoIndex) at = (at + 1) & mask;
    slots_[at] = s;
  }
}

std::uint32_t KernelInfoSet::intern(std::vector<KernelInfo>& infos, const KernelInfo& info) {
  if ((used_ + 1) * 4 > slots_.size() * 3) grow();
  const std::uint32_t hash = hashOf(info);
  const std::size_t mask = slots_.size() - 1;
  std::size_t at = hash & mask;
  for (; slots_[at].index != kNoIndex; at = (at + 1) & mask) {
    if (slots_[at].hash == hash && infos[slots_[at].index] == info) return slots_[at].index;
  }
  slots_[at] = Slot{hash, static_cast<std::uint32_t>(infos.size())};
  ++used_;
  infos.push_back(info);
  return slots_[at].index;
}

std::uint32_t BuilderState::internKernelInfo(const KernelInfo& info) { return kernelInfoSet.intern(kernelInfos, info); }

std::uint32_t BuilderState::mergeKernelInfo(const KernelInfo& info) {
  constexpr std::uint32_t kJudgedAfter = 4096;
  if (!kernelInfosRepeat) {
    kernelInfos.push_back(info);
    return static_cast<std::uint32_t>(kernelInfos.size() - 1);
  }
  const std::size_t before = kernelInfos.size();
  const std::uint32_t id = internKernelInfo(info);
  if (kernelInfos.size() == before) ++mergedKernelInfosFound;
  if (++mergedKernelInfos == kJudgedAfter && mergedKernelInfosFound * 8 < kJudgedAfter) {
    kernelInfosRepeat = false;
    kernelInfoSet = KernelInfoSet{};
  }
  return id;
}

std::uint32_t BuilderState::processFor(ChromeId pid) {
  auto it = processIndex.find(pid);
  if (it != processIndex.end()) return it->second;
  auto id = static_cast<std::uint32_t>(processes.size());
  processes.push_back(RawProcess{pid, kEmptyString, kEmptyString, std::nullopt});
  processIndex.emplace(pid, id);
  return id;
}

}  // namespace detail

TraceBuilder::TraceBuilder() : impl_(std::make_unique<Impl>()) {}
TraceBuilder::~TraceBuilder() = default;
TraceBuilder::TraceBuilder(TraceBuilder&&) noexcept = default;
TraceBuilder& TraceBuilder::operator=(TraceBuilder&&) noexcept = default;

StringId TraceBuilder::intern(std::string_view text) { return impl_->strings.intern(text); }
std::string_view TraceBuilder::str(StringId id) const { return impl_->strings.view(id); }
ChromeId TraceBuilder::stringId(std::string_view text) {
  return ChromeId{0, impl_->strings.intern(text)};
}

static Slice toSlice(detail::BuilderState& s, const SliceEvent& e, std::uint32_t track) {
  Slice slice;
  slice.start = e.start;
  slice.dur = e.dur;
  slice.correlation = e.correlation;
  slice.args = e.args;
  slice.name = e.name;
  slice.category = e.category;
  slice.shapes = e.shapes;
  slice.track = track;
  slice.kind = s.kindOf(e.category);
  if (e.kernel) slice.kernelInfo = s.internKernelInfo(*e.kernel);
  return slice;
}

static void addPendingSlice(detail::BuilderState& s, const SliceEvent& e, Slice slice) {
  auto index = static_cast<std::uint32_t>(s.slices.size());
  if (e.hasBindId && (e.flowIn || e.flowOut)) {
    s.binds.push_back({index, e.bindId, e.flowIn, e.flowOut});
  }
  s.slices.push_back(slice);
  s.offsets.push_back(e.offset);
}

void TraceBuilder::addComplete(const SliceEvent& e) {
  auto& s = *impl_;
  ++s.nextSeq;
  Slice slice = toSlice(s, e, s.trackFor(e.pid, e.tid));
  if (slice.dur < 0) {
    s.issues.add("negative_duration", Severity::Warning, e.offset,
                 "X event with a negative dur: kept with duration 0");
    slice.dur = 0;
  }
  s.note(slice.start);
  s.note(slice.end());
  addPendingSlice(s, e, slice);
}

void TraceBuilder::addBegin(const SliceEvent& e) {
  auto& s = *impl_;
  std::uint32_t track = s.trackFor(e.pid, e.tid);
  Slice slice = toSlice(s, e, track);
  slice.dur = -1;  // set when matched in finish()
  slice.flags |= kSliceFromBegin;
  s.beginEnds.push_back({track, e.start, s.nextSeq++, e.offset,
                         static_cast<std::uint32_t>(s.slices.size())});
  s.note(e.start);
  addPendingSlice(s, e, slice);
}

void TraceBuilder::addEnd(ChromeId pid, ChromeId tid, TimeNs ts, std::uint64_t offset) {
  auto& s = *impl_;
  s.beginEnds.push_back({s.trackFor(pid, tid), ts, s.nextSeq++, offset, kNoIndex});
  s.note(ts);
}

void TraceBuilder::addInstant(const InstantEvent& e) {
  auto& s = *impl_;
  ++s.nextSeq;
  std::uint32_t track = kNoIndex;
  if (e.scope == 't') track = s.trackFor(e.pid, e.tid);
  else if (e.scope == 'p') s.processFor(e.pid);
  s.instants.push_back({e, track});
  s.note(e.ts);
}

void TraceBuilder::addCounter(ChromeId pid, StringId series, TimeNs ts, double value,
                              std::uint64_t offset) {
  auto& s = *impl_;
  ++s.nextSeq;
  s.processFor(pid);
  s.counterPoints.push_back({pid, series, ts, value});
  s.note(ts);
}

void TraceBuilder::addAsync(AsyncEvent e) {
  auto& s = *impl_;
  s.processFor(e.pid);
  s.note(e.ts);
  s.asyncs.push_back({std::move(e), s.nextSeq++});
}

void TraceBuilder::addFlow(const FlowEvent& e) {
  auto& s = *impl_;
  ++s.nextSeq;
  detail::PendingFlow f;
  f.id = e.id;
  f.ts = e.ts;
  f.offset = e.offset;
  f.track = s.trackFor(e.pid, e.tid);
  f.category = e.category;
  f.name = e.name;
  f.phase = e.phase;
  f.bindEnclosing = e.bindEnclosing;
  s.flows.push_back(f);
  s.note(e.ts);
}

void TraceBuilder::setProcessName(ChromeId pid, std::string_view name) {
  auto& s = *impl_;
  s.processes[s.processFor(pid)].name = s.strings.intern(name);
}

void TraceBuilder::setProcessLabels(ChromeId pid, std::string_view labels) {
  auto& s = *impl_;
  s.processes[s.processFor(pid)].labels = s.strings.intern(labels);
}

void TraceBuilder::setProcessSortIndex(ChromeId pid, std::int64_t index) {
  auto& s = *impl_;
  s.processes[s.processFor(pid)].sortIndex = index;
}

void TraceBuilder::setThreadName(ChromeId pid, ChromeId tid, std::string_view name) {
  auto& s = *impl_;
  s.tracks[s.trackFor(pid, tid)].name = s.strings.intern(name);
}

void TraceBuilder::setThreadSortIndex(ChromeId pid, ChromeId tid, std::int64_t index) {
  auto& s = *impl_;
  s.tracks[s.trackFor(pid, tid)].sortIndex = index;
}

void TraceBuilder::reserve(std::size_t slices, std::size_t flowEvents) {
  auto& s = *impl_;
  if (slices > s.slices.capacity()) {
    s.slices.reserve(slices);
    s.offsets.reserve(slices);
  }
  if (flowEvents > s.flows.capacity()) s.flows.reserve(flowEvents);
}

TraceMetadata& TraceBuilder::metadata() { return impl_->metadata; }
ImportIssues& TraceBuilder::issues() { return impl_->issues; }
void TraceBuilder::countEvents(std::uint64_t n) { impl_->eventCount += n; }
void TraceBuilder::noteTime(TimeNs ts) { impl_->note(ts); }

Trace TraceBuilder::finish(std::shared_ptr<const ArgsSource> args, int threads) {
  Trace trace = detail::finishTrace(*impl_, std::move(args), threads);
  impl_ = std::make_unique<Impl>();
  return trace;
}

}  // namespace gapscope
