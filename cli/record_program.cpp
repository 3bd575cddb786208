// gapscope-cli record [-o FILE|DIR/] [--duration S] [--delay S] [--capture-range R]
//   [--kill-on-stop] [--torch-ops | --no-torch-ops] [--allow-no-gpu] -- CMD ARGS...
// Checks that the GPU can be recorded before CMD starts, runs CMD with the
// injection library, merges what every CUDA process of it sent into one
// trace, saves it, prints the summary and the largest gaps (the summary and
// gaps commands on the saved file) and returns CMD's exit status. With a
// folder (-o DIR/), each process gets a trace of its own, named after its
// rank, and one line of figures.
#include "record_program.h"

#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <stdexcept>

#include "command.h"

#if GAPSCOPE_HAVE_GPU
#include "gapscope/analysis/gaps.h"
#include "gapscope/gpu/program_recorder.h"
#include "gapscope/gpu/program_trace.h"
#include "gapscope/gpu/recorder.h"
#include "gapscope/writer/chrome_writer.h"
#endif

namespace gapscope::cli {

#if GAPSCOPE_HAVE_GPU

namespace {

constexpr const char* kDefaultOutput = "gapscope_record.json.gz";

gpu::StopRequest gStop;

// Ctrl-C at a terminal reaches the whole foreground group, CMD included
// (si_code SI_KERNEL); a signal sent to the recorder alone (kill: SI_USER)
// is passed on to CMD so it can end the same way.
void onStopSignal(int sig, siginfo_t* info, void*) {
  gStop.count.fetch_add(1);
  if (info && (info->si_code == SI_USER || info->si_code == SI_QUEUE)) gStop.forward.store(sig);
}

void installStopHandlers() {
  struct sigaction sa{};
  sa.sa_sigaction = onStopSignal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

double secondsOption(const Args& args, const char* key) {
  double v = args.getDouble(key, 0.0);
  if (v < 0 || v > 7 * 24 * 3600.0)
    throw std::invalid_argument(std::string("--") + key + " must be a number of seconds >= 0, got " + args.get(key));
  return v;
}

void parseCaptureRange(const std::string& v, gpu::ProgramOptions& o) {
  if (v.empty()) return;
  if (v == "cudaProfilerApi") {
    o.captureRange = gpu::CaptureRange::CudaProfilerApi;
  } else if (v.rfind("nvtx:", 0) == 0 && v.size() > 5) {
    o.captureRange = gpu::CaptureRange::Nvtx;
    o.captureNvtxName = v.substr(5);
  } else {
    throw std::invalid_argument("--capture-range must be cudaProfilerApi or nvtx:NAME, got '" + v + "'");
  }
}

gpu::ProgramOptions programOptions(const Args& args) {
  if (!args.positional().empty())
    throw std::invalid_argument("unexpected argument '" + args.positional().front() + "' before --");
  if (args.program().empty()) throw std::invalid_argument("no program after --: record -- CMD ARGS...");
  if (args.has("workload")) throw std::invalid_argument("--workload and a program after -- exclude each other");
  if (args.has("torch-ops") && args.has("no-torch-ops"))
    throw std::invalid_argument("--torch-ops and --no-torch-ops exclude each other");
  gpu::ProgramOptions o;
  o.command = args.program();
  o.delaySeconds = secondsOption(args, "delay");
  o.durationSeconds = secondsOption(args, "duration");
  parseCaptureRange(args.get("capture-range"), o);
  o.killOnStop = args.has("kill-on-stop");
  o.torchOps = args.has("torch-ops") || (!args.has("no-torch-ops") && gpu::looksLikePython(o.command.front()));
  long long pool = args.getInt("pool-mb", 64);
  if (pool < 2 || pool > 65536) throw std::invalid_argument("--pool-mb must be within 2..65536");
  o.cuptiPoolBytes = static_cast<std::size_t>(pool) << 20;
  o.channelBytes = o.cuptiPoolBytes;
  return o;
}

// "rank 1 of 2": what the process's environment said; empty when nothing.
std::string rankText(const gpu::DistributedRank& d) {
  if (d.rank < 0) return "";
  return "rank " + std::to_string(d.rank) + (d.worldSize > 0 ? " of " + std::to_string(d.worldSize) : "");
}

void printProcesses(std::ostream& out, const gpu::ProgramRecordingResult& r) {
  out << "Processes:    " << r.processes.size() << " used CUDA\n";
  for (const auto& p : r.processes) {
    out << "  pid " << p.processId << " " << p.name;
    if (std::string rank = rankText(p.distributed); !rank.empty()) out << " (" << rank << ")";
    out << ": " << p.records << " records";
    if (p.outsideCapture) out << " (" << p.outsideCapture << " outside the recording window or capture range, left out)";
    if (gpu::stillRunning(r, p)) {
      out << "; still running when recording stopped";
    } else if (!p.cleanEnd) {
      out << "; ended without its final flush (killed or crashed)";
    }
    out << "\n";
  }
}

const char* stopText(gpu::StopReason why) {
  switch (why) {
    case gpu::StopReason::ProgramEnded: return "the program ended";
    case gpu::StopReason::Duration: return "--duration elapsed";
    case gpu::StopReason::Interrupted: return "interrupted";
    case gpu::StopReason::Stopped: return "stopped";
  }
  return "?";
}

// The summary and gaps commands on the saved file: the same text they print.
void printAnalysis(const std::string& path, std::ostream& out, std::ostream& err) {
  for (std::vector<std::string> words : {std::vector<std::string>{path},
                                         std::vector<std::string>{path, "--limit", "5"}}) {
    const Command& cmd = commandRegistry().at(words.size() == 1 ? "summary" : "gaps");
    std::string error;
    auto a = Args::parse(words, cmd.flags, &error);
    out << "\n";
    if (a) cmd.run(*a, out, err);
  }
}

// -o DIR/, or -o naming a folder that exists: one trace per process.
bool isFolderOutput(const std::string& path) {
  return !path.empty() && (path.back() == '/' || std::filesystem::is_directory(path));
}

// Made before the program runs, so a path that cannot be a folder costs no run.
bool makeFolder(const std::string& dir, std::ostream& err) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!ec && std::filesystem::is_directory(dir, ec)) return true;
  err << "gapscope-cli record: cannot make the folder " << dir << ": "
      << (ec ? ec.message() : std::string("a file of that name is in the way")) << "\n";
  return false;
}

// -o FILE: every process in one trace.
bool saveMerged(const std::string& path, const gpu::ProgramRecordingResult& r, std::ostream& out, std::ostream& err) {
  writer::WriteResult written = writer::writeChromeTrace(gpu::convertToTrace(r.records), path);
  if (!written.ok()) {
    err << "gapscope-cli record: " << written.error << "\n";
    return false;
  }
  out << "Saved:        " << path << " (" << written.bytes << " bytes)\n";
  return true;
}

std::string countOf(std::size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

// One process's trace in one line: kernels, steps and the verdict of
// `gaps` (which gives the GPU's busy share).
std::string traceLine(const Trace& trace) {
  const auto kernels = std::count_if(trace.slices.begin(), trace.slices.end(),
                                     [](const Slice& s) { return s.kind == SliceKind::Kernel; });
  // The steps the gap analysis counted (none without GPU work), as summary says.
  const analysis::GapSummary gaps = analysis::summarizeGaps(trace, analysis::computeGpuBusy(trace));
  return countOf(static_cast<std::size_t>(kernels), "kernel") + ", " + countOf(gaps.steps, "step") +
         "; " + (gaps.hasGpuActivity ? gaps.verdict : std::string("no GPU activity"));
}

// Traces in the folder this recording did not write (an earlier run's
// ranks, say): `ranks DIR` would read them as well.
void noteOtherTraces(const std::string& dir, const std::vector<std::string>& written, std::ostream& out) {
  std::vector<std::string> others;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    const bool trace = name.ends_with(".json") || name.ends_with(".json.gz");
    if (trace && std::find(written.begin(), written.end(), name) == written.end()) others.push_back(name);
  }
  if (others.empty()) return;
  std::sort(others.begin(), others.end());
  out << "Note:         " << dir << " also holds " << others.size() << " trace(s) this recording did not write ("
      << others.front() << (others.size() > 1 ? ", ..." : "") << "); gapscope-cli ranks reads them too\n";
}

// -o DIR/: a trace per process, "rank-R.json.gz" (its RANK) or "pid-P.json.gz".
bool saveEachProcess(const std::string& dir, const gpu::ProgramRecordingResult& r, std::ostream& out,
                     std::ostream& err) {
  const std::vector<std::string> names = gpu::processTraceNames(r.records.processes);
  bool ok = true;
  for (std::size_t k = 0; k < names.size(); ++k) {
    const std::string path = (std::filesystem::path(dir) / names[k]).string();
    const Trace trace = gpu::convertToTrace(r.processRecords[k]);
    writer::WriteResult written = writer::writeChromeTrace(trace, path);
    if (!written.ok()) {
      err << "gapscope-cli record: " << written.error << "\n";
      ok = false;
      continue;
    }
    out << "Saved:        " << path << " (" << written.bytes << " bytes): " << traceLine(trace) << "\n";
  }
  noteOtherTraces(dir, names, out);
  return ok;
}

}  // namespace

int runRecordProgram(const Args& args, std::ostream& out, std::ostream& err) {
  gpu::ProgramOptions options = programOptions(args);
  const std::string path = args.get("output", kDefaultOutput);
  gpu::Availability a = gpu::recordingAvailability();
  if (!a.available && !args.has("allow-no-gpu")) {
    err << "gapscope-cli record: cannot record the GPU here: " << a.reason << ".\n"
        << "The program was not run (--allow-no-gpu runs it without recording the GPU).\n";
    return 1;
  }
  if (!a.available) {
    err << "gapscope-cli record: running the program without recording the GPU (" << a.reason << ")\n";
    options.inject = false;
  }
  options.traceEachProcess = isFolderOutput(path);
  if (options.inject && options.traceEachProcess && !makeFolder(path, err)) return 1;
  installStopHandlers();
  gpu::ProgramRecording recording(options);
  if (!recording.start()) {
    err << "gapscope-cli record: " << recording.error() << "\n";
    return 1;
  }
  gpu::ProgramRecordingResult result = recording.collect(&gStop);
  bool saved = true;
  if (options.inject) {
    out << "Recorded:     " << result.records.command << " (stopped: " << stopText(result.stopReason) << ")\n";
    printProcesses(out, result);
    saved = options.traceEachProcess ? saveEachProcess(path, result, out, err) : saveMerged(path, result, out, err);
    // Said out loud, never only counted; the file carries them as import issues.
    // (That recording stopped while the program ran is the "stopped:" line.)
    for (const auto& issue : result.records.issues) {
      if (issue.name == "recording_stopped_early") continue;
      out << (issue.isProblem() ? "Warning:      " : "Note:         ") << issue.description << "\n";
    }
    if (saved && !options.traceEachProcess) printAnalysis(path, out, err);
    const bool ranked = std::any_of(result.processes.begin(), result.processes.end(),
                                    [](const gpu::RecordedProcess& p) { return p.distributed.rank >= 0; });
    if (options.traceEachProcess && ranked) out << "\nPer rank:     gapscope-cli ranks " << path << "\n";
  }
  out.flush();
  int status = recording.waitForExit(&gStop);
  out << "\nProgram exit status: " << status << "\n";
  return saved ? status : 1;
}

#else

int runRecordProgram(const Args&, std::ostream&, std::ostream& err) {
  err << "gapscope-cli record: this gapscope-cli was built without the GPU recorder (GAPSCOPE_BUILD_GPU=OFF)\n";
  return 1;
}

#endif

}  // namespace gapscope::cli
