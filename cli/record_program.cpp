// gapscope-cli record [-o FILE] [--duration S] [--delay S] [--capture-range R]
//   [--kill-on-stop] [--torch-ops | --no-torch-ops] [--allow-no-gpu] -- CMD ARGS...
// Checks that the GPU can be recorded before CMD starts, runs CMD with the
// injection library, merges what every CUDA process of it sent into one
// trace, saves it, prints the summary and the largest gaps (the summary and
// gaps commands on the saved file) and returns CMD's exit status.
#include "record_program.h"

#include <signal.h>

#include <filesystem>
#include <ostream>
#include <stdexcept>

#include "command.h"

#if GAPSCOPE_HAVE_GPU
#include "gapscope/gpu/program_recorder.h"
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

void printProcesses(std::ostream& out, const gpu::ProgramRecordingResult& r) {
  out << "Processes:    " << r.processes.size() << " used CUDA\n";
  for (const auto& p : r.processes) {
    out << "  pid " << p.processId << " " << p.name << ": " << p.records << " records";
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
  installStopHandlers();
  gpu::ProgramRecording recording(options);
  if (!recording.start()) {
    err << "gapscope-cli record: " << recording.error() << "\n";
    return 1;
  }
  gpu::ProgramRecordingResult result = recording.collect(&gStop);
  bool saved = true;
  if (options.inject) {
    writer::WriteResult written = writer::writeChromeTrace(gpu::convertToTrace(result.records), path);
    saved = written.ok();
    out << "Recorded:     " << result.records.command << " (stopped: " << stopText(result.stopReason) << ")\n";
    printProcesses(out, result);
    if (saved) {
      out << "Saved:        " << path << " (" << written.bytes << " bytes)\n";
    } else {
      err << "gapscope-cli record: " << written.error << "\n";
    }
    // Said out loud, never only counted; the file carries them as import issues.
    // (That recording stopped while the program ran is the "stopped:" line.)
    for (const auto& issue : result.records.issues) {
      if (issue.name == "recording_stopped_early") continue;
      out << (issue.isProblem() ? "Warning:      " : "Note:         ") << issue.description << "\n";
    }
    if (saved) printAnalysis(path, out, err);
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
