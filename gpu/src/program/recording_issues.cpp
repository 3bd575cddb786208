// What a program recording says about itself, as the trace's import issues:
// one definition for the CLI's warnings, the app's import notes and the
// file's "gapscope_recording_issues" member.
#include <algorithm>
#include <string>

#include "gapscope/gpu/program_recorder.h"

namespace gapscope::gpu {

namespace {

std::string who(const RecordedProcess& p) { return "process " + std::to_string(p.processId) + " (" + p.name + ")"; }

const char* stopCause(StopReason why) {
  switch (why) {
    case StopReason::Duration: return "the recording's duration elapsed";
    case StopReason::Interrupted: return "the recording was interrupted";
    case StopReason::Stopped: return "the recording was stopped";
    case StopReason::ProgramEnded: break;
  }
  return "the program ended";
}

ImportIssue recordingIssue(const char* name, Severity severity, std::uint64_t count, std::string description) {
  return ImportIssue{name, severity, count, 0, std::move(description), false};
}

}  // namespace

bool stillRunning(const ProgramRecordingResult& r, const RecordedProcess& p) {
  return !p.cleanEnd &&
         (r.inProgress || r.stopReason == StopReason::Duration || r.stopReason == StopReason::Stopped);
}

std::vector<ImportIssue> recordingIssues(const ProgramRecordingResult& r) {
  std::vector<ImportIssue> out;
  bool anyStillRunning = false;
  for (const auto& p : r.processes) {
    if (const std::uint64_t dropped = p.cuptiDropped + p.channelDropped; dropped > 0) {
      out.push_back(recordingIssue("recording_records_dropped", Severity::Warning, dropped,
                          who(p) + ": " + std::to_string(dropped) + " records dropped (" +
                              std::to_string(p.cuptiDropped) + " because CUPTI's buffer pool was full, " +
                              std::to_string(p.channelDropped) +
                              " because the channel to the recorder was full); a larger pool keeps more"));
    }
    anyStillRunning = anyStillRunning || stillRunning(r, p);
    if (!p.cleanEnd && !stillRunning(r, p)) {
      out.push_back(recordingIssue("recording_ended_early", Severity::Warning, 1,
                          who(p) + " ended before its final flush (killed or crashed): its records after the "
                                   "last delivered buffer are missing"));
    }
    if (!p.error.empty())
      out.push_back(recordingIssue("recording_stream_error", Severity::Warning, 1, who(p) + ": " + p.error + " (what came before is kept)"));
  }
  if (anyStillRunning && !r.inProgress) {
    out.push_back(recordingIssue("recording_stopped_early", Severity::Info, 1,
                        std::string(stopCause(r.stopReason)) +
                            " while the program was still running: its later work is not in the trace"));
  }
  for (const auto& w : r.warnings) out.push_back(recordingIssue("recording_process_note", Severity::Info, 1, w));
  if (r.processes.empty() && !r.inProgress) {
    out.push_back(recordingIssue("recording_no_cuda_process", Severity::Info, 1,
                        "no process of the program initialised CUDA: there is no GPU work to record"));
  }
  return out;
}

std::vector<ImportIssue> mergedRanksIssues(const ProgramRecordingResult& r) {
  std::vector<std::int32_t> ranks;
  for (const auto& p : r.processes) {
    if (p.distributed.rank >= 0) ranks.push_back(p.distributed.rank);
  }
  if (ranks.size() < 2) return {};
  std::sort(ranks.begin(), ranks.end());
  std::string list;
  for (std::size_t i = 0; i < ranks.size() && i < 8; ++i) list += (i ? ", " : "") + std::to_string(ranks[i]);
  if (ranks.size() > 8) list += ", ...";
  return {recordingIssue("recording_ranks_merged", Severity::Info, ranks.size(),
                         std::to_string(ranks.size()) + " processes are ranks of a distributed job (" + list +
                             "), merged into this one trace: `gapscope-cli record -o DIR/` writes a trace per rank, "
                             "which `gapscope-cli ranks DIR` and File > Open Ranks Directory compare")};
}

}  // namespace gapscope::gpu
