// gapscope-cli record: run a bundled GPU workload under CUPTI, save the
// trace (Chrome JSON, .json.gz compressed), print what it shows: GPU work
// per step, GPU utilisation and the gap verdict.
#include <algorithm>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "command.h"
#include "output.h"
#include "record_program.h"

#if GAPSCOPE_HAVE_GPU
#include "gapscope/analysis/gaps.h"
#include "gapscope/gpu/recorder.h"
#include "gapscope/gpu/step_counts.h"
#include "gapscope/gpu/workloads.h"
#include "gapscope/writer/chrome_writer.h"
#endif

namespace gapscope::cli {
namespace {

#if GAPSCOPE_HAVE_GPU

using Json = nlohmann::ordered_json;

// -o FILE (or --output FILE); record takes no positional arguments.
std::string outputPath(const Args& args) {
  if (!args.positional().empty()) {
    throw std::invalid_argument("unexpected argument '" + args.positional().front() + "'");
  }
  return args.get("output");
}

int intOption(const Args& args, const char* key, long long lo, long long hi, int fallback) {
  long long v = args.getInt(key, fallback);
  if (v < lo || v > hi) {
    throw std::invalid_argument(std::string("--") + key + " must be within " + std::to_string(lo) + ".." +
                                std::to_string(hi) + ", got " + std::to_string(v));
  }
  return static_cast<int>(v);
}

gpu::RecordOptions recordOptions(const Args& args) {
  gpu::RecordOptions o;
  o.workload = args.get("workload");
  if (o.workload.empty()) throw std::invalid_argument("--workload NAME is required (see: gapscope-cli workloads)");
  const gpu::WorkloadInfo* w = gpu::findWorkload(o.workload);
  if (!w) throw std::invalid_argument("unknown workload '" + o.workload + "' (see: gapscope-cli workloads)");
  o.variant = args.get("variant");
  if (!o.variant.empty() && std::find(w->variants.begin(), w->variants.end(), o.variant) == w->variants.end())
    throw std::invalid_argument("workload " + w->name + " has no variant '" + o.variant + "'");
  o.size = intOption(args, "size", w->minSize, w->maxSize, w->defaultSize);
  o.steps = intOption(args, "steps", 1, 1000, w->defaultSteps);
  o.warmupSteps = intOption(args, "warmup", 0, 100, w->warmupSteps);
  o.device = intOption(args, "device", 0, 1024, 0);
  o.check = args.has("check");
  o.syncEachStep = args.has("sync-each-step");
  o.bufferPoolBytes = static_cast<std::size_t>(intOption(args, "pool-mb", 8, 65536, 256)) << 20;
  return o;
}

TimeNs median(std::vector<std::int64_t> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Wall time of all recorded steps through the final sync, per step.
TimeNs perStep(const gpu::RecordStats& s) { return s.steps > 0 ? s.wallNs / s.steps : 0; }

struct Overhead {
  TimeNs untracedBefore = 0;
  TimeNs untracedAfter = 0;
  TimeNs traced = 0;
  double ratio() const {
    double base = 0.5 * static_cast<double>(untracedBefore + untracedAfter);
    return base > 0 ? static_cast<double>(traced) / base : 0.0;
  }
};

// Runs the workload without CUPTI; returns its time per step.
TimeNs untracedPerStep(gpu::RecordOptions o, std::ostream& err, bool* ok) {
  o.trace = false;
  o.check = false;
  gpu::RecordResult r = gpu::record(o);
  if (!r.ok()) {
    err << "gapscope-cli record: untraced run failed: " << r.error << "\n";
    *ok = false;
  }
  return perStep(r.stats);
}

struct Recording {
  gpu::RecordOptions options;
  gpu::RecordResult result;
  std::string path;
  writer::WriteResult written;
  std::vector<gpu::StepCounts> steps;
  analysis::GapSummary gaps;
  bool hasOverhead = false;
  Overhead overhead;
};


void printText(std::ostream& out, const Recording& r) {
  const Trace* t = r.result.trace ? &*r.result.trace : nullptr;
  std::string device = t && !t->metadata.devices.empty() ? t->metadata.devices.front().name : "GPU";
  std::string variant = r.options.variant;
  if (variant.empty()) variant = gpu::findWorkload(r.options.workload)->variants.front();
  out << "Recorded:     " << r.options.workload << " (variant " << variant
      << ", size " << r.options.size << ") on " << device << ": " << r.result.stats.steps << " steps after "
      << r.options.warmupSteps << " warm-up\n";
  if (!r.path.empty()) out << "Saved:        " << r.path << " (" << r.written.bytes << " bytes)\n";
  out << "Time/step:    " << format::formatDuration(perStep(r.result.stats), kTableTime) << " ("
      << format::formatDuration(r.result.stats.wallNs, kTableTime)
      << " for all steps through the final sync" << (r.options.syncEachStep ? "; a sync after every step" : "")
      << ")\n";
  if (r.result.stats.checked) out << "Check:        matches the CPU reference\n";
  if (t) {
    out << "Recorded:     " << r.result.stats.kernels << " kernels, " << r.result.stats.memcpys << " memcpys, "
        << r.result.stats.memsets << " memsets, " << r.result.stats.apiCalls << " API calls\n";
    TextTable table;
    table.addColumn("Step", TextTable::Align::Left);
    table.addColumn("CPU time");
    table.addColumn("Kernels");
    table.addColumn("Memcpy");
    table.addColumn("Memset");
    table.addColumn("GPU busy");
    for (const auto& s : r.steps) {
      table.addRow({s.name, format::formatDuration(s.cpuDur, kTableTime), std::to_string(s.kernels),
                    std::to_string(s.memcpys), std::to_string(s.memsets),
                    format::formatDuration(s.gpuBusy, kTableTime)});
    }
    table.print(out);
    if (r.gaps.hasGpuActivity) {
      out << "GPU utilisation: " << format::formatPercent(100.0 * r.gaps.utilization, kTablePercent)
          << " of the active window\n";
      out << "Verdict:      " << r.gaps.verdict << "\n";
    } else {
      out << "GPU utilisation: no GPU activity recorded\n";
    }
  }
  if (r.hasOverhead) {
    out << "Overhead:     time per step " << format::formatDuration(r.overhead.traced, kTableTime) << " recorded vs "
        << format::formatDuration(r.overhead.untracedBefore, kTableTime) << " / "
        << format::formatDuration(r.overhead.untracedAfter, kTableTime)
        << " unrecorded (before / after): ratio " << r.overhead.ratio() << "\n";
  }
  for (const auto& w : r.result.warnings) out << "Warning:      " << w << "\n";
}

void printJson(std::ostream& out, const Recording& r) {
  Json j;
  j["workload"] = r.options.workload;
  j["variant"] = r.options.variant.empty() ? gpu::findWorkload(r.options.workload)->variants.front() : r.options.variant;
  j["size"] = r.options.size;
  j["steps"] = r.result.stats.steps;
  j["warmup_steps"] = r.options.warmupSteps;
  if (!r.path.empty()) {
    j["file"] = r.path;
    j["file_bytes"] = r.written.bytes;
  }
  j["step_wall_us"] = Json::array();
  for (auto ns : r.result.stats.stepWallNs) j["step_wall_us"].push_back(format::usNumber(ns));
  j["median_step_us"] = format::usNumber(median(r.result.stats.stepWallNs));
  j["wall_per_step_us"] = format::usNumber(perStep(r.result.stats));
  j["sync_each_step"] = r.options.syncEachStep;
  j["checked"] = r.result.stats.checked;
  j["kernels"] = r.result.stats.kernels;
  j["memcpys"] = r.result.stats.memcpys;
  j["memsets"] = r.result.stats.memsets;
  j["api_calls"] = r.result.stats.apiCalls;
  j["dropped_records"] = r.result.stats.droppedRecords;
  j["per_step"] = Json::array();
  for (const auto& s : r.steps) {
    j["per_step"].push_back(Json{{"name", s.name},
                                 {"cpu_us", format::usNumber(s.cpuDur)},
                                 {"kernels", s.kernels},
                                 {"memcpys", s.memcpys},
                                 {"memsets", s.memsets},
                                 {"gpu_busy_us", format::usNumber(s.gpuBusy)}});
  }
  if (r.result.trace) {
    j["gpu_utilization"] = r.gaps.utilization;
    j["verdict"] = r.gaps.verdict;
  }
  if (r.hasOverhead) {
    j["overhead"] = Json{{"untraced_before_us", format::usNumber(r.overhead.untracedBefore)},
                         {"traced_us", format::usNumber(r.overhead.traced)},
                         {"untraced_after_us", format::usNumber(r.overhead.untracedAfter)},
                         {"ratio", r.overhead.ratio()}};
  }
  j["warnings"] = r.result.warnings;
  writeJson(out, j);
}

int runRecord(const Args& args, std::ostream& out, std::ostream& err) {
  if (args.hasProgram()) return runRecordProgram(args, out, err);
  Recording r;
  r.options = recordOptions(args);
  OutputFormat format = formatOption(args);
  if (format == OutputFormat::Csv) throw std::invalid_argument("--format csv is not available for record");
  bool traced = !args.has("no-trace");
  r.path = traced ? outputPath(args) : std::string();
  if (traced && r.path.empty()) throw std::invalid_argument("-o FILE (.json or .json.gz) is required");

  bool ok = true;
  r.hasOverhead = traced && args.has("compare-untraced");
  if (r.hasOverhead) r.overhead.untracedBefore = untracedPerStep(r.options, err, &ok);
  r.options.trace = traced;
  r.result = gpu::record(r.options);
  if (!r.result.ok()) {
    err << "gapscope-cli record: " << (r.result.cancelled ? "cancelled" : r.result.error) << "\n";
    return 1;
  }
  if (r.hasOverhead) {
    r.overhead.traced = perStep(r.result.stats);
    r.overhead.untracedAfter = untracedPerStep(r.options, err, &ok);
  }
  if (r.result.trace) {
    // Saved before anything else looks at it, so nothing recorded is lost.
    r.written = writer::writeChromeTrace(*r.result.trace, r.path);
    if (!r.written.ok()) {
      err << "gapscope-cli record: " << r.written.error << "\n";
      return 1;
    }
    const analysis::GpuBusy busy = analysis::computeGpuBusy(*r.result.trace);
    r.steps = gpu::countPerStep(*r.result.trace, busy);
    r.gaps = analysis::summarizeGaps(*r.result.trace, busy);
  }
  if (format == OutputFormat::Json) {
    printJson(out, r);
  } else {
    printText(out, r);
  }
  return ok ? 0 : 1;
}

#else

int runRecord(const Args& args, std::ostream& out, std::ostream& err) {
  if (args.hasProgram()) return runRecordProgram(args, out, err);
  err << "gapscope-cli record: this gapscope-cli was built without the GPU recorder (GAPSCOPE_BUILD_GPU=OFF)\n";
  return 1;
}

#endif

}  // namespace

GAPSCOPE_CLI_COMMAND("record",
                     "record --workload NAME [--size N] [--steps N] [--variant V] [--warmup N] [--device N] -o FILE "
                     "[--check] [--sync-each-step] [--compare-untraced] [--no-trace] [--pool-mb N] [--format text|json]"
                     " | record [-o FILE|DIR/] [--duration S] [--delay S] [--capture-range cudaProfilerApi|nvtx:NAME] "
                     "[--kill-on-stop] [--torch-ops|--no-torch-ops] [--allow-no-gpu] [--pool-mb N] -- CMD ARGS...",
                     "run a bundled GPU workload, or your own program (after --, children included), under CUPTI, "
                     "save the trace (.json or .json.gz) and print kernels per step or the summary, GPU "
                     "utilisation and the gaps; with a program, exit with its exit status; -o DIR/ (or an "
                     "existing folder) writes one trace per process, rank-R.json.gz after its RANK (torchrun) "
                     "else pid-P.json.gz, for gapscope-cli ranks DIR",
                     {"check", "sync-each-step", "compare-untraced", "no-trace", "kill-on-stop", "torch-ops",
                      "no-torch-ops", "allow-no-gpu"},
                     runRecord);

}  // namespace gapscope::cli
