// gapscope-cli gaps: where the GPU sat idle, why, and what it cost.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <deque>
#include <future>
#include <numeric>
#include <ostream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "command.h"
#include "gapscope/analysis/percent.h"
#include "gapscope/analysis/gap_list.h"
#include "gapscope/analysis/gaps.h"
#include "gapscope/format/escape.h"
#include "gapscope/io/heap_setup.h"
#include "gapscope/report/report.h"
#include "load_trace.h"
#include "output.h"

namespace gapscope::cli {
namespace {

using analysis::Gap;
using analysis::GapAnalysis;
using analysis::GapCause;
using analysis::RankedGap;
using analysis::UtilizationStats;
using Json = nlohmann::ordered_json;

constexpr std::size_t kTextGapLimit = 20;  // text shows the 20 longest gaps unless --limit
constexpr std::size_t kTextCpuOps = 10;

TimeNs minGapOption(const Args& args, TimeNs fallback) {
  if (!args.has("min-gap-us")) return fallback;
  double us = args.getDouble("min-gap-us", 0.0);
  if (!(us >= 0.0) || us > 1e12)
    throw std::invalid_argument("--min-gap-us expects a non-negative number of microseconds, got '" +
                                args.get("min-gap-us") + "'");
  return static_cast<TimeNs>(std::llround(us * 1000.0));
}

std::string_view sliceName(const Trace& t, std::uint32_t slice) {
  return slice < t.slices.size() ? t.str(t.slices[slice].name) : std::string_view();
}

std::string cpuOpName(const Trace& t, const analysis::CpuOpBlame& op) {
  return op.isUntraced ? "(untraced)" : std::string(t.str(op.name));
}

// The launching thread as Kineto names it: its tid (a number or a label).
std::string threadText(const Trace& t, std::uint32_t track) {
  if (track >= t.tracks.size()) return "-";
  const ChromeId& tid = t.tracks[track].tid;
  if (tid.label != kEmptyString) return std::string(t.str(tid.label));
  return std::to_string(tid.num);
}

// --- JSON ------------------------------------------------------------------

Json statsJson(const UtilizationStats& s, bool withStream) {
  Json j;
  j["device"] = s.device;
  if (withStream) j["stream"] = s.stream;
  j["active_us"] = format::usNumber(s.activeNs());
  j["busy_us"] = format::usNumber(s.busyNs);
  j["utilization"] = s.utilization();
  j["idle_us"] = {{"launch_overhead", format::usNumber(s.idle[GapCause::LaunchOverhead])},
                  {"synchronization", format::usNumber(s.idle[GapCause::Synchronization])},
                  {"queued", format::usNumber(s.idle[GapCause::Queued])},
                  {"other", format::usNumber(s.idle[GapCause::Other])}};
  j["hta_idle_us"] = {{"host_wait", format::usNumber(s.hta.hostWait)},
                      {"kernel_wait", format::usNumber(s.hta.kernelWait)},
                      {"other", format::usNumber(s.hta.other)}};
  return j;
}

// One gap as an element of the JSON gap list, printed straight into `out`
// as JsonObjectStream would print it at an array's depth: a gap list holds up to millions of rows.
// CliGaps.StreamedJsonIsTheWholeDocumentPrettyPrinted checks the bytes.
void appendGapElement(std::string& out, const Trace& t, const GapAnalysis& a, const RankedGap& r) {
  const Gap& g = a.gaps[r.gap];
  auto field = [&out](const char* key) {
    out += "\n      \"";
    out += key;
    out += "\": ";
  };
  auto name = [&t](std::uint32_t slice) {
    return slice < t.slices.size() ? t.str(t.slices[slice].name) : std::string_view();
  };
  out += '{';
  field("device");
  json_text::integer(out, g.device);
  out += ',';
  field("stream");
  if (g.stream < 0) out += "null";
  else json_text::integer(out, g.stream);
  out += ',';
  field("start_us");
  json_text::number(out, format::usNumber(g.start));
  out += ',';
  field("dur_us");
  json_text::number(out, format::usNumber(g.dur));
  out += ',';
  field("device_idle_us");
  json_text::number(out, format::usNumber(r.deviceIdle));
  out += ',';
  field("cause");
  json_text::string(out, analysis::gapCauseName(g.cause));
  out += ',';
  field("before");
  json_text::string(out, name(g.before));
  out += ',';
  field("after");
  json_text::string(out, name(g.after));
  out += ',';
  field("launch_thread");
  if (g.launchTrack >= t.tracks.size()) {
    out += "null";
  } else if (const ChromeId& tid = t.tracks[g.launchTrack].tid; tid.label != kEmptyString) {
    json_text::string(out, t.str(tid.label));
  } else {
    json_text::integer(out, tid.num);
  }
  out += ',';
  field("cpu_ops");
  if (g.cpuOpsCount == 0) {
    out += "[]";
  } else {
    out += '[';
    for (std::uint32_t i = 0; i < g.cpuOpsCount; ++i) {
      const analysis::CpuOpBlame& op = a.cpuOps[g.cpuOpsBegin + i];
      out += i ? ",\n        {\n          \"name\": " : "\n        {\n          \"name\": ";
      if (op.isUntraced) json_text::string(out, "(untraced)");
      else json_text::string(out, t.str(op.name));
      out += ",\n          \"self_us\": ";
      json_text::number(out, format::usNumber(op.selfNs));
      out += "\n        }";
    }
    out += "\n      ]";
  }
  out += "\n    }";
}

Json distributionJson(const analysis::Distribution& d) {
  return {{"median", format::usNumber(d.median)}, {"p90", format::usNumber(d.p90)}, {"max", format::usNumber(d.max)}};
}

Json stepJson(const Trace& t, const analysis::StepStats& s) {
  Json devices = Json::array();
  for (const auto& d : s.devices) devices.push_back(statsJson(d, false));
  return {{"step", std::string(t.str(s.name))},
          {"number", s.number},
          {"cpu_start_us", format::usNumber(s.cpuStart)},
          {"cpu_dur_us", format::usNumber(s.cpuEnd - s.cpuStart)},
          {"kernels", s.kernels},
          {"memcpys", s.memcpys},
          {"memsets", s.memsets},
          {"launches", s.launches},
          {"warm_up", s.warmUp},
          {"devices", std::move(devices)}};
}

// Rows made kChunkRows at a time, in time order, printed in rank order.
// Printed by idle time (rank order), each row reads its gap record, CPU-op
// rows and slices from random places in a model of hundreds of megabytes;
// in time order those reads move forward through memory. Chunks are made
// on up to four threads ahead of the one printing, in its order (each
// chunk's text is held meanwhile: tens of megabytes at most). `make` gets
// a scratch string of its thread's own.
template <typename MakeRow, typename EmitRow>
void forRowsInTimeOrder(const std::vector<RankedGap>& gaps, MakeRow make, EmitRow emit) {
  static constexpr std::size_t kChunkRows = 32768;
  struct RowChunk {
    std::string text;
    std::vector<std::pair<std::size_t, std::size_t>> spans;  // per row of the chunk: offset, length in `text`
  };
  auto makeChunk = [&gaps, &make](std::size_t from) {
    const std::size_t count = std::min(kChunkRows, gaps.size() - from);
    std::vector<std::uint32_t> order(count);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t x, std::uint32_t y) { return gaps[from + x].gap < gaps[from + y].gap; });
    RowChunk c;
    c.spans.assign(count, {0, 0});
    std::string scratch;
    for (std::uint32_t k : order) {
      const std::size_t begin = c.text.size();
      make(c.text, scratch, gaps[from + k]);
      c.spans[k] = {begin, c.text.size() - begin};
    }
    return c;
  };
  const std::size_t chunks = (gaps.size() + kChunkRows - 1) / kChunkRows;
  const std::size_t ahead = std::min<std::size_t>(chunks, std::clamp(io::usableCores(), 1, 4));
  std::deque<std::future<RowChunk>> pending;
  std::size_t next = 0;
  auto startNext = [&] {
    try {
      pending.push_back(std::async(std::launch::async, makeChunk, next * kChunkRows));
    } catch (const std::system_error&) {  // no thread to be had: made when printed
      pending.push_back(std::async(std::launch::deferred, makeChunk, next * kChunkRows));
    }
    ++next;
  };
  while (next < ahead) startNext();
  while (!pending.empty()) {
    const RowChunk c = pending.front().get();
    pending.pop_front();
    if (next < chunks) startNext();
    for (const auto& [begin, length] : c.spans) emit(std::string_view(c.text).substr(begin, length));
  }
}

// Streamed: the gap list may hold millions of rows (JsonObjectStream).
void printJson(std::ostream& out, const Trace& t, const GapAnalysis& a,
               const std::vector<RankedGap>& gaps, bool perStep) {
  JsonObjectStream o(out);
  Json devices = Json::array();
  for (const auto& d : a.devices) devices.push_back(statsJson(d, false));
  o.member("devices", devices);
  Json streams = Json::array();
  for (const auto& s : a.streams) streams.push_back(statsJson(s, true));
  o.member("streams", streams);
  o.beginArray("gaps");
  forRowsInTimeOrder(
      gaps, [&](std::string& text, std::string&, const RankedGap& r) { appendGapElement(text, t, a, r); },
      [&](std::string_view element) { o.rawElement(element); });
  o.endArray();
  const auto& l = a.launchStats;
  o.member("launches", {{"count", l.count},
                        {"launch_us", distributionJson(l.launchNs)},
                        {"queue_us", distributionJson(l.queueNs)},
                        {"short_kernels", l.shortKernels},
                        {"outliers", l.outliers}});
  o.member("verdict", a.verdict.line);
  if (perStep) {
    o.member("step_source", analysis::stepSourceName(a.stepSource));
    o.beginArray("steps");
    for (const auto& s : a.steps) o.element(stepJson(t, s));
    o.endArray();
  }
  o.finish();
}

// --- CSV: one row per gap ------------------------------------------------------

// One gap's CSV row, newline included. `ops` is scratch space.
void appendCsvRow(std::string& buf, std::string& ops, const Trace& t, const GapAnalysis& a, const RankedGap& r) {
  // Numbers go straight into the buffer: they never need quotes.
  auto field = [&buf](std::string_view text) {
    format::appendCsvQuoted(buf, text);
    buf += ',';
  };
  auto usField = [&buf](TimeNs ns) {
    format::appendExactUs(buf, ns);
    buf += ',';
  };
  auto intField = [&buf](std::int64_t value) {
    char digits[24];
    buf.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
    buf += ',';
  };
  const Gap& g = a.gaps[r.gap];
  ops.clear();
  for (std::uint32_t i = 0; i < g.cpuOpsCount; ++i) {
    const analysis::CpuOpBlame& op = a.cpuOps[g.cpuOpsBegin + i];
    if (i) ops += "; ";
    ops += op.isUntraced ? std::string_view("(untraced)") : t.str(op.name);
    ops += '=';
    format::appendExactUs(ops, op.selfNs);
  }
  intField(g.device);
  if (g.stream < 0) {
    buf += ',';
  } else {
    intField(g.stream);
  }
  usField(g.start);
  usField(g.dur);
  usField(r.deviceIdle);
  field(analysis::gapCauseName(g.cause));
  field(analysis::htaIdleKindName(g.hta));
  field(sliceName(t, g.before));
  field(sliceName(t, g.after));
  field(sliceName(t, g.launch));
  field(g.launchTrack == kNoIndex ? std::string() : threadText(t, g.launchTrack));
  field(ops);
  format::appendCsvQuoted(buf, analysis::explainGap(t, g));
  buf += '\n';
}

void printCsv(std::ostream& out, const Trace& t, const GapAnalysis& a,
              const std::vector<RankedGap>& gaps) {
  writeCsvRow(out, {"device", "stream", "start_us", "dur_us", "device_idle_us", "cause", "hta_category", "before",
                    "after", "launch_call", "launch_thread", "cpu_ops", "explanation"});
  constexpr std::size_t kFlushBytes = std::size_t{1} << 20;
  std::string buf;
  forRowsInTimeOrder(
      gaps, [&](std::string& text, std::string& ops, const RankedGap& r) { appendCsvRow(text, ops, t, a, r); },
      [&](std::string_view row) {
        buf += row;
        if (buf.size() < kFlushBytes) return;
        out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
        buf.clear();
      });
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

// --- text ------------------------------------------------------------------

std::string pct(TimeNs part, TimeNs whole) {
  return format::formatPercent(whole > 0 ? analysis::percentOf(part, whole) : 0.0, kTablePercent);
}

void printUtilization(std::ostream& out, const std::string& title,
                      const std::vector<UtilizationStats>& rows, bool withStream) {
  using Align = TextTable::Align;
  TextTable table;
  table.addColumn("Device");
  if (withStream) table.addColumn("Stream");
  for (const char* h : {"Active", "Busy", "Util", "Launch overhead", "Synchronisation", "Queued",
                        "Other", "HTA host wait", "HTA kernel wait", "HTA other"})
    table.addColumn(h, Align::Right);
  for (const auto& s : rows) {
    std::vector<std::string> cells{std::to_string(s.device)};
    if (withStream) cells.push_back(std::to_string(s.stream));
    for (TimeNs v : {s.activeNs(), s.busyNs}) cells.push_back(format::formatDuration(v, kTableTime));
    cells.push_back(pct(s.busyNs, s.activeNs()));
    for (std::size_t c = 0; c < analysis::kGapCauseCount; ++c)
      cells.push_back(format::formatDuration(s.idle.ns[c], kTableTime));
    for (TimeNs v : {s.hta.hostWait, s.hta.kernelWait, s.hta.other})
      cells.push_back(format::formatDuration(v, kTableTime));
    table.addRow(std::move(cells));
  }
  out << title << '\n';
  table.print(out);
}

void printLaunches(std::ostream& out, const GapAnalysis& a) {
  const auto& l = a.launchStats;
  out << "Launches: " << l.count << " launch calls reached the GPU (";
  bool first = true;
  for (std::size_t k = 1; k < analysis::kLaunchKindCount; ++k) {
    if (!l.byKind[k]) continue;
    out << (first ? "" : ", ") << analysis::launchKindName(static_cast<analysis::LaunchKind>(k))
        << ' ' << l.byKind[k];
    first = false;
  }
  if (l.byKind[0]) out << (first ? "" : ", ") << "other " << l.byKind[0];
  out << "), " << l.unmatched << " without GPU work in the trace\n"
      << "  launch call time  median " << format::formatDuration(l.launchNs.median, kTableTime)
      << "  p90 " << format::formatDuration(l.launchNs.p90, kTableTime)
      << "  max " << format::formatDuration(l.launchNs.max, kTableTime) << '\n'
      << "  queue time        median " << format::formatDuration(l.queueNs.median, kTableTime)
      << "  p90 " << format::formatDuration(l.queueNs.p90, kTableTime)
      << "  max " << format::formatDuration(l.queueNs.max, kTableTime) << '\n'
      << "  short kernels (GPU time below the launch call's): " << l.shortKernels
      << ", outlier launch calls: " << l.outliers << '\n';
}

void printOverheadOps(std::ostream& out, const Trace& t, const GapAnalysis& a) {
  if (a.overheadCpuOps.empty()) return;
  TimeNs total = 0;
  for (const auto& op : a.overheadCpuOps) total += op.selfNs;
  TextTable table;
  table.addColumn("CPU op (launching thread)", TextTable::Align::Left, 60);
  table.addColumn("Self time in gaps");
  table.addColumn("Share");
  std::size_t n = std::min(a.overheadCpuOps.size(), kTextCpuOps);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& op = a.overheadCpuOps[i];
    table.addRow({cpuOpName(t, op), format::formatDuration(op.selfNs, kTableTime), pct(op.selfNs, total)});
  }
  out << "\nWhere the launch-overhead idle time went (device gaps):\n";
  table.print(out);
}

// "launch overhead", or "launch overhead (device busy)" for a stream gap
// while another stream kept the device busy.
std::string causeText(const Gap& g, const RankedGap& r) {
  std::string cause = analysis::gapCauseLabel(g.cause);
  return g.stream >= 0 && r.deviceBusy() ? cause + " (device busy)" : cause;
}

void printGaps(std::ostream& out, const Trace& t, const GapAnalysis& a, const std::vector<RankedGap>& gaps,
               std::size_t listedTotal, bool streams) {
  out << "\nLargest gaps" << (streams ? ", by the device idle inside them" : " of the whole device") << " ("
      << gaps.size() << " of " << listedTotal << " listed, " << a.unlistedGaps
      << " shorter ones counted but not listed" << (streams ? "" : "; --streams adds each stream's gaps") << "):\n";
  if (gaps.empty()) return;
  using Align = TextTable::Align;
  TextTable table;
  table.addColumn("Start");
  table.addColumn("Duration");
  if (streams) table.addColumn("Device idle");
  table.addColumn("Device");
  table.addColumn("Stream");
  table.addColumn("Cause", Align::Left);
  table.addColumn("After op", Align::Left, 40);
  table.addColumn("Thread");
  table.addColumn("Top CPU ops (self time in gap)", Align::Left, 70);
  for (const RankedGap& r : gaps) {
    const Gap& g = a.gaps[r.gap];
    std::string ops;
    auto list = analysis::cpuOpsOf(a, g);
    for (std::size_t i = 0; i < list.size() && i < 3; ++i)
      ops += (i ? ", " : "") + cpuOpName(t, list[i]) + " " + format::formatDuration(list[i].selfNs, kTableTime);
    std::vector<std::string> cells{format::formatDuration(g.start - t.minTime(), kTableTime),
                                   format::formatDuration(g.dur, kTableTime)};
    if (streams) cells.push_back(format::formatDuration(r.deviceIdle, kTableTime));
    for (std::string cell : {std::to_string(g.device), g.stream < 0 ? std::string("all") : std::to_string(g.stream),
                             causeText(g, r), std::string(sliceName(t, g.after)), threadText(t, g.launchTrack), ops})
      cells.push_back(std::move(cell));
    table.addRow(std::move(cells));
  }
  table.print(out);
  out << "(Start is from the beginning of the trace; stream \"all\" is a gap of the whole device.)\n"
      << "Why the largest gap: " << analysis::explainGap(t, a.gaps[gaps.front().gap]) << '\n';
}

// Annotation steps share one name: their number tells them apart. A
// warm-up step says so (left out of the verdict).
std::string stepSuffix(const GapAnalysis& a, const analysis::StepStats& s) {
  return (a.stepSource == analysis::StepSource::RepeatedAnnotation ? " #" + std::to_string(s.number) : "") +
         (s.warmUp ? " (warm-up)" : "");
}

void printSteps(std::ostream& out, const Trace& t, const GapAnalysis& a) {
  if (a.steps.empty()) {
    out << "\nNo steps: the trace has no ProfilerStep#N annotations and no top-level annotation that repeats.\n";
    return;
  }
  TextTable table;
  table.addColumn("Step", TextTable::Align::Left);
  for (const char* h : {"Device", "Kernels", "Launches", "GPU window", "Busy", "Util", "Launch overhead",
                        "Synchronisation", "Queued", "Other"})
    table.addColumn(h);
  for (const auto& s : a.steps) {
    for (const auto& d : s.devices) {
      // Kernels and launches are the step's, over all devices.
      std::vector<std::string> cells{std::string(t.str(s.name)) + stepSuffix(a, s), std::to_string(d.device),
                                     std::to_string(s.kernels), std::to_string(s.launches),
                                     format::formatDuration(d.activeNs(), kTableTime),
                                     format::formatDuration(d.busyNs, kTableTime),
                                     pct(d.busyNs, d.activeNs())};
      for (std::size_t c = 0; c < analysis::kGapCauseCount; ++c)
        cells.push_back(format::formatDuration(d.idle.ns[c], kTableTime));
      table.addRow(std::move(cells));
    }
  }
  out << "\nPer step (GPU window: " << analysis::kStepWindowText << "; kernels and launches over all devices):\n";
  table.print(out);
}

void printText(std::ostream& out, const Trace& t, const GapAnalysis& a,
               const std::vector<RankedGap>& gaps, std::size_t listedTotal, bool perStep, bool streams) {
  out << "Verdict: " << a.verdict.line << "\n";
  if (!a.hasGpuActivity) return;
  out << '\n';
  printUtilization(out, "Devices:", a.devices, false);
  out << '\n';
  printUtilization(out, "Streams:", a.streams, true);
  out << '\n';
  printLaunches(out, a);
  printOverheadOps(out, t, a);
  printGaps(out, t, a, gaps, listedTotal, streams);
  if (perStep) printSteps(out, t, a);
  for (const auto& note : a.notes) out << "Note: " << note << '\n';
}

int runGaps(const Args& args, std::ostream& out, std::ostream& err) {
  const OutputFormat format = formatOption(args);
  analysis::GapOptions options;
  options.minGapNs = minGapOption(args, options.minGapNs);
  // The steps are always found: the verdict speaks of them (gaps.h); the
  // flag only prints their table.
  const bool perStep = args.has("per-step");
  options.keepLaunches = false;
  std::size_t limit = limitOption(args);
  if (format == OutputFormat::Text && !args.has("limit")) limit = kTextGapLimit;
  auto path = tracePathArgument(args, "gaps", err);
  if (!path) return 2;
  auto trace = loadTraceForCommand(*path, "gaps", err);
  if (!trace) return 1;

  const analysis::GpuBusy busy = analysis::computeGpuBusy(*trace);
  const GapAnalysis a = analysis::analyzeGaps(*trace, busy, options);
  const bool streams = args.has("streams");
  analysis::GapListOptions listed;
  listed.streams = streams;
  std::vector<RankedGap> ranked = analysis::rankGaps(a, busy, listed);
  const std::size_t listedTotal = ranked.size();
  if (ranked.size() > limit) ranked.resize(limit);
  switch (format) {
    case OutputFormat::Text: printText(out, *trace, a, ranked, listedTotal, perStep, streams); break;
    case OutputFormat::Json: printJson(out, *trace, a, ranked, perStep); break;
    case OutputFormat::Csv:
      // One CSV is one table: with --per-step, the steps' (the report's steps.csv).
      if (perStep) {
        out << report::tableCsv(report::stepTable(*trace, a));
        if (a.steps.empty()) {
          err << "gapscope-cli gaps: " << *path << " has no steps (docs/gaps.md, \"Per step\"): the per-step table is empty\n";
        }
      } else {
        printCsv(out, *trace, a, ranked);
      }
      break;
  }
  return 0;
}

}  // namespace

GAPSCOPE_CLI_COMMAND("gaps",
                     "gaps TRACE [--format text|json|csv] [--min-gap-us X] [--limit N] [--streams] [--per-step]",
                     "GPU idle gaps and why: utilisation per device and stream, each gap's cause "
                     "(launch overhead, synchronisation, queued, other) with the CPU ops to blame, "
                     "launch statistics and a verdict; gaps of the whole device, largest first "
                     "(--streams adds each stream's gaps, ranked by the device idle inside them; "
                     "--min-gap-us default 1; text lists the 20 largest unless --limit; --per-step adds the "
                     "per-step table, in CSV instead of the gaps)",
                     {"per-step", "streams"}, runGaps);

}  // namespace gapscope::cli
