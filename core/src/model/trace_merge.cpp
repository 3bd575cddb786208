// TraceBuilder::merge: appends a later chunk's builder, remapping its string
// ids, track ids, kernel launch configurations, slice indices and file-order
// sequence numbers.
#include <algorithm>

#include "builder_impl.h"

namespace gapscope {

namespace {

struct Remap {
  std::vector<StringId> strings;
  std::vector<std::uint32_t> tracks;
  std::vector<std::uint32_t> kernelInfos;
  std::uint32_t sliceBase = 0;
  std::uint64_t seqBase = 0;

  StringId str(StringId id) const { return strings[id]; }
  ChromeId id(ChromeId c) const { return ChromeId{c.num, strings[c.label]}; }
};

Remap makeRemap(detail::BuilderState& into, const detail::BuilderState& from) {
  Remap r;
  r.strings.resize(from.strings.size());
  for (std::size_t i = 0; i < from.strings.size(); ++i) {
    r.strings[i] = into.strings.intern(from.strings.view(static_cast<StringId>(i)));
  }
  r.tracks.resize(from.tracks.size());
  for (std::size_t i = 0; i < from.tracks.size(); ++i) {
    const auto& key = from.tracks[i].key;
    r.tracks[i] = into.trackFor(r.id(key.pid), r.id(key.tid));
  }
  r.sliceBase = static_cast<std::uint32_t>(into.slices.size());
  r.kernelInfos.resize(from.kernelInfos.size());
  for (std::size_t i = 0; i < from.kernelInfos.size(); ++i) r.kernelInfos[i] = into.mergeKernelInfo(from.kernelInfos[i]);
  r.seqBase = into.nextSeq;
  return r;
}

void mergeNames(detail::BuilderState& into, const detail::BuilderState& from, const Remap& r) {
  for (std::size_t i = 0; i < from.tracks.size(); ++i) {
    auto& t = into.tracks[r.tracks[i]];
    if (from.tracks[i].name != kEmptyString) t.name = r.str(from.tracks[i].name);
    if (from.tracks[i].sortIndex) t.sortIndex = from.tracks[i].sortIndex;
  }
  for (const auto& p : from.processes) {
    auto& q = into.processes[into.processFor(r.id(p.pid))];
    if (p.name != kEmptyString) q.name = r.str(p.name);
    if (p.labels != kEmptyString) q.labels = r.str(p.labels);
    if (p.sortIndex) q.sortIndex = p.sortIndex;
  }
}

void mergeSlices(detail::BuilderState& into, detail::BuilderState& from, const Remap& r) {
  // No exact reserve here: merging chunk after chunk would reallocate (and
  // copy everything merged so far) on every merge; push_back grows
  // geometrically.
  for (Slice s : from.slices) {
    s.name = r.str(s.name);
    s.category = r.str(s.category);
    s.shapes = r.str(s.shapes);
    s.track = r.tracks[s.track];
    if (s.kernelInfo != kNoIndex) s.kernelInfo = r.kernelInfos[s.kernelInfo];
    into.slices.push_back(s);
  }
  into.offsets.insert(into.offsets.end(), from.offsets.begin(), from.offsets.end());
  for (auto be : from.beginEnds) {
    be.track = r.tracks[be.track];
    be.seq += r.seqBase;
    if (be.slice != kNoIndex) be.slice += r.sliceBase;
    into.beginEnds.push_back(be);
  }
  for (auto b : from.binds) {
    b.slice += r.sliceBase;
    into.binds.push_back(b);
  }
}

void mergeOthers(detail::BuilderState& into, detail::BuilderState& from, const Remap& r) {
  for (auto a : from.asyncs) {
    a.event.pid = r.id(a.event.pid);
    a.event.tid = r.id(a.event.tid);
    a.event.name = r.str(a.event.name);
    a.event.category = r.str(a.event.category);
    a.seq += r.seqBase;
    into.asyncs.push_back(std::move(a));
  }
  for (auto f : from.flows) {
    f.name = r.str(f.name);
    f.category = r.str(f.category);
    f.track = r.tracks[f.track];
    into.flows.push_back(f);
  }
  for (auto i : from.instants) {
    i.event.pid = r.id(i.event.pid);
    i.event.tid = r.id(i.event.tid);
    i.event.name = r.str(i.event.name);
    i.event.category = r.str(i.event.category);
    if (i.track != kNoIndex) i.track = r.tracks[i.track];
    into.instants.push_back(i);
  }
  for (auto c : from.counterPoints) {
    c.pid = r.id(c.pid);
    c.series = r.str(c.series);
    into.processFor(c.pid);
    into.counterPoints.push_back(c);
  }
}

void mergeMetadata(TraceMetadata& into, const TraceMetadata& from) {
  if (!from.sourcePath.empty()) into.sourcePath = from.sourcePath;
  if (from.sourceBytes) into.sourceBytes = from.sourceBytes;
  if (from.decompressedBytes) into.decompressedBytes = from.decompressedBytes;
  if (from.baseTimeNanoseconds) into.baseTimeNanoseconds = from.baseTimeNanoseconds;
  if (!from.displayTimeUnit.empty()) into.displayTimeUnit = from.displayTimeUnit;
  if (!from.devices.empty()) into.devices = from.devices;
  if (!from.distributedInfoJson.empty()) into.distributedInfoJson = from.distributedInfoJson;
  into.otherKeys.insert(into.otherKeys.end(), from.otherKeys.begin(), from.otherKeys.end());
}

}  // namespace

void TraceBuilder::merge(TraceBuilder&& later) {
  auto& into = *impl_;
  auto& from = *later.impl_;
  Remap r = makeRemap(into, from);
  mergeNames(into, from, r);
  mergeSlices(into, from, r);
  mergeOthers(into, from, r);
  mergeMetadata(into.metadata, from.metadata);
  into.issues.merge(from.issues);
  into.eventCount += from.eventCount;
  into.nextSeq += from.nextSeq;
  into.minTime = std::min(into.minTime, from.minTime);
  into.maxTime = std::max(into.maxTime, from.maxTime);
  later = TraceBuilder();
}

}  // namespace gapscope
