#include "gapscope/io/trace_dump.h"

#include <optional>
#include <sstream>

#include "gapscope/model/event_args.h"

namespace gapscope::io {

namespace {

std::string idText(const Trace& t, const ChromeId& id) {
  if (id.label != kEmptyString) return "\"" + std::string(t.str(id.label)) + "\"";
  return std::to_string(id.num);
}

const char* trackKindName(TrackKind k) {
  switch (k) {
    case TrackKind::CpuThread: return "cpu";
    case TrackKind::GpuStream: return "gpu";
    case TrackKind::Async: return "async";
  }
  return "?";
}

const char* flowKindName(FlowKind k) {
  switch (k) {
    case FlowKind::LaunchToGpu: return "launch";
    case FlowKind::FwdBwd: return "fwdbwd";
    case FlowKind::Other: return "other";
  }
  return "?";
}

void dumpKernel(std::ostream& os, const KernelInfo& k) {
  os << " kernel{grid=" << k.grid[0] << "," << k.grid[1] << "," << k.grid[2] << " block=" << k.block[0] << ","
     << k.block[1] << "," << k.block[2] << " regs=" << k.registersPerThread << " smem=" << k.sharedMemory
     << " blocksPerSm=" << k.blocksPerSm << " warpsPerSm=" << k.warpsPerSm << " occ=" << k.occupancyPct
     << " device=" << k.device << " stream=" << k.stream << "}";
}

void dumpSlice(std::ostream& os, const Trace& t, const std::optional<EventArgs>& args, const Slice& s, std::size_t index,
               const DumpOptions& o) {
  os << "    #" << index << " " << s.start << " +" << s.dur << " d" << s.depth << " " << sliceKindName(s.kind)
     << " \"" << t.str(s.name) << "\" cat=\"" << t.str(s.category) << "\"";
  if (s.correlation != kNoCorrelation) os << " corr=" << s.correlation;
  if (s.shapes != kEmptyString) os << " shapes=" << t.str(s.shapes);
  if (s.flags & kSliceSpilled) os << " spilled";
  if (s.flags & kSliceUnclosed) os << " unclosed";
  if (s.flags & kSliceFromBegin) os << " from-B";
  if (s.kernelInfo != kNoIndex) dumpKernel(os, t.kernelInfos[s.kernelInfo]);
  if (args && s.args.length) os << " args=" << args->slice(s);
  os << "\n";
}

void dumpTracks(std::ostream& os, const Trace& t, const std::optional<EventArgs>& args, const DumpOptions& o) {
  for (const Process& p : t.processes) {
    os << "process " << idText(t, p.pid) << " name=\"" << t.str(p.name) << "\"";
    if (p.labels != kEmptyString) os << " labels=\"" << t.str(p.labels) << "\"";
    os << " sort=" << p.sortIndex << (p.isGpu ? " gpu" : "") << "\n";
    for (std::uint32_t ti : p.tracks) {
      const Track& tr = t.tracks[ti];
      os << "  track " << trackKindName(tr.kind) << " tid=" << idText(t, tr.tid) << " name=\"" << t.str(tr.name)
         << "\" sort=" << tr.sortIndex;
      if (tr.kind == TrackKind::GpuStream) os << " device=" << tr.device << " stream=" << tr.stream;
      os << " slices=" << tr.sliceCount << " rows=" << tr.rows << " nested=" << tr.nestedRows << "\n";
      std::size_t shown = 0;
      for (std::uint32_t i = tr.firstSlice; i < tr.firstSlice + tr.sliceCount && shown < o.maxSlices; ++i, ++shown) {
        dumpSlice(os, t, args, t.slices[i], i, o);
      }
    }
  }
}

void dumpRest(std::ostream& os, const Trace& t, const std::optional<EventArgs>& args, const DumpOptions& o) {
  for (const Flow& f : t.flows) {
    os << "flow " << flowKindName(f.kind) << " id=" << f.id << " cat=\"" << t.str(f.category) << "\" #" << f.from
       << " -> #" << f.to << "\n";
  }
  for (const Instant& i : t.instants) {
    os << "instant " << i.ts << " scope=" << i.scope << " \"" << t.str(i.name) << "\" cat=\"" << t.str(i.category)
       << "\"";
    if (i.track != kNoIndex) os << " track=" << i.track;
    if (args && i.args.length) os << " args=" << args->instant(i);
    os << "\n";
  }
  for (const CounterSeries& c : t.counters) {
    os << "counter \"" << t.str(c.name) << "\" process=" << c.process << " points=" << c.ts.size();
    for (std::size_t k = 0; k < c.ts.size() && k < 8; ++k) os << " " << c.ts[k] << ":" << c.values[k];
    os << "\n";
  }
  const TraceMetadata& m = t.metadata;
  os << "metadata displayTimeUnit=\"" << m.displayTimeUnit << "\" baseTimeNanoseconds=" << m.baseTimeNanoseconds
     << " devices=" << m.devices.size() << " distributedInfo=" << (m.distributedInfoJson.empty() ? "-" : m.distributedInfoJson)
     << "\n";
  for (const auto& d : m.devices) {
    os << "device id=" << d.id << " name=\"" << d.name << "\" sms=" << d.numSms << " cc=" << d.computeMajor << "."
       << d.computeMinor << "\n";
  }
  for (const auto& [k, v] : m.otherKeys) os << "key " << k << "=" << v << "\n";
  os << "events=" << t.eventCount << " span=" << t.minTime() << ".." << t.maxTime() << "\n";
  for (const ImportIssue& i : t.issues.all()) {
    os << "issue " << i.name << " " << severityName(i.severity) << " x" << i.count;
    if (i.producerQuirk) os << " producer-quirk";
    if (o.offsets) os << " @" << i.firstOffset;
    os << "\n";
  }
}

}  // namespace

std::string dumpTrace(const Trace& trace, const DumpOptions& options) {
  std::ostringstream os;
  std::optional<EventArgs> args;
  if (options.args) args.emplace(trace);
  dumpTracks(os, trace, args, options);
  dumpRest(os, trace, args, options);
  return os.str();
}

}  // namespace gapscope::io
