// `record -- CMD` end to end without a GPU: CMD is fake_cuda_program, which
// sends fabricated records through the real channel and frame format the
// injection library uses. The recorder starts it, follows its children,
// merges, stops on request, and the trace it makes is written and read back.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "gapscope/gpu/program_recorder.h"
#include "gapscope/gpu/program_trace.h"
#include "gapscope/io/chrome_reader.h"
#include "gapscope/writer/chrome_writer.h"

#ifdef GAPSCOPE_FAKE_PROGRAM

using namespace gapscope;
using namespace gapscope::gpu;

namespace {

ProgramOptions fake(std::vector<std::string> args) {
  ProgramOptions o;
  o.command = {GAPSCOPE_FAKE_PROGRAM};
  o.command.insert(o.command.end(), args.begin(), args.end());
  o.injectionLibrary = GAPSCOPE_FAKE_PROGRAM;  // never loaded: the fake has no CUDA
  o.graceSeconds = 2;
  return o;
}

std::size_t kernelsIn(const Trace& t) {
  std::size_t n = 0;
  for (const auto& s : t.slices) n += s.kind == SliceKind::Kernel;
  return n;
}

// Written, read back: the file a user would open.
Trace roundTrip(const RecordSet& records, const std::string& name) {
  auto path = std::filesystem::temp_directory_path() / (name + std::to_string(::getpid()) + ".json.gz");
  writer::WriteResult w = writer::writeChromeTrace(convertToTrace(records), path.string());
  EXPECT_TRUE(w.ok()) << w.error;
  io::LoadResult r = io::loadChromeTrace(path.string());
  std::filesystem::remove(path);
  EXPECT_TRUE(r.ok()) << r.error;
  return r.trace ? std::move(*r.trace) : Trace{};
}

}  // namespace

TEST(ProgramRecording, RecordsTheProgramAndReturnsItsExitCode) {
  ProgramRecording rec(fake({"kernels", "25", "7"}));
  ASSERT_TRUE(rec.start()) << rec.error();
  ProgramRecordingResult r = rec.collect(nullptr);
  EXPECT_EQ(rec.waitForExit(nullptr), 7);
  EXPECT_EQ(r.stopReason, StopReason::ProgramEnded);
  ASSERT_EQ(r.processes.size(), 1u);
  EXPECT_TRUE(r.processes[0].cleanEnd);
  EXPECT_EQ(r.processes[0].processId, static_cast<std::uint32_t>(rec.childPid()));
  EXPECT_EQ(r.records.kernels.size(), 25u);
  Trace t = roundTrip(r.records, "program_recording_basic");
  EXPECT_EQ(kernelsIn(t), 25u);
  std::size_t steps = 0;
  for (const auto& s : t.slices) steps += t.str(s.name) == "ProfilerStep#1";
  EXPECT_EQ(steps, 1u);
}

TEST(ProgramRecording, FollowsChildProcessesEachUnderItsOwnPid) {
  ProgramRecording rec(fake({"parent"}));
  ASSERT_TRUE(rec.start()) << rec.error();
  ProgramRecordingResult r = rec.collect(nullptr);
  EXPECT_EQ(rec.waitForExit(nullptr), 0);
  ASSERT_EQ(r.processes.size(), 2u);
  std::set<std::uint32_t> pids;
  for (const auto& p : r.processes) {
    pids.insert(p.processId);
    EXPECT_NE(p.processId, static_cast<std::uint32_t>(rec.childPid()));  // grandchildren, not the parent
  }
  Trace t = roundTrip(r.records, "program_recording_children");
  EXPECT_EQ(kernelsIn(t), 6u);
  std::set<std::uint32_t> cpuPids;
  for (const auto& s : t.slices)
    if (s.kind == SliceKind::CudaRuntime) cpuPids.insert(static_cast<std::uint32_t>(t.tracks[s.track].pid.num));
  EXPECT_EQ(cpuPids, pids);
  std::set<std::int64_t> streams;
  for (const auto& tr : t.tracks)
    if (tr.kind == TrackKind::GpuStream) streams.insert(tr.stream);
  EXPECT_EQ(streams.size(), 2u) << "each child's stream 7 is a lane of its own";
}

// record -o DIR/: a trace per process, named after the RANK torchrun would
// have set, with its distributedInfo and only its own kernels.
TEST(ProgramRecording, OneTracePerProcessNamedAfterItsRank) {
  ProgramOptions o = fake({"ranks"});
  o.traceEachProcess = true;
  ProgramRecording rec(o);
  ASSERT_TRUE(rec.start()) << rec.error();
  ProgramRecordingResult r = rec.collect(nullptr);
  EXPECT_EQ(rec.waitForExit(nullptr), 0);
  ASSERT_EQ(r.processes.size(), 3u);
  ASSERT_EQ(r.processRecords.size(), 3u);
  EXPECT_TRUE(r.records.kernels.empty()) << "nothing merged";
  EXPECT_TRUE(r.records.issues.empty());
  const std::vector<std::string> names = processTraceNames(r.records.processes);
  std::map<std::string, Trace> traces;
  std::string unranked;
  for (std::size_t k = 0; k < names.size(); ++k) {
    EXPECT_TRUE(r.processRecords[k].issues.empty()) << names[k];
    traces.emplace(names[k], roundTrip(r.processRecords[k], "program_recording_" + names[k]));
    if (r.processes[k].distributed.rank < 0) unranked = "pid-" + std::to_string(r.processes[k].processId) + ".json.gz";
  }
  ASSERT_EQ(traces.count("rank-0.json.gz"), 1u);
  ASSERT_EQ(traces.count("rank-1.json.gz"), 1u);
  ASSERT_EQ(traces.count(unranked), 1u) << unranked;
  EXPECT_EQ(traces["rank-0.json.gz"].metadata.distributedInfoJson, R"({"rank": 0, "world_size": 2, "local_rank": 0})");
  EXPECT_EQ(traces["rank-1.json.gz"].metadata.distributedInfoJson, R"({"rank": 1, "world_size": 2, "local_rank": 1})");
  EXPECT_EQ(traces[unranked].metadata.distributedInfoJson, "");
  EXPECT_EQ(kernelsIn(traces["rank-0.json.gz"]), 2u);
  EXPECT_EQ(kernelsIn(traces["rank-1.json.gz"]), 3u);
  EXPECT_EQ(kernelsIn(traces[unranked]), 1u);
  const std::int64_t base = traces["rank-0.json.gz"].metadata.baseTimeNanoseconds;
  for (const auto& [name, t] : traces) EXPECT_EQ(t.metadata.baseTimeNanoseconds, base) << name << ": one time zero";
}

// Without -o DIR/ the ranks share one trace, which says how to get one each.
TEST(ProgramRecording, MergedRanksSayHowToRecordATracePerRank) {
  ProgramRecording rec(fake({"ranks"}));
  ASSERT_TRUE(rec.start()) << rec.error();
  ProgramRecordingResult r = rec.collect(nullptr);
  EXPECT_EQ(rec.waitForExit(nullptr), 0);
  ASSERT_EQ(r.records.issues.size(), 1u);
  const ImportIssue& issue = r.records.issues.front();
  EXPECT_EQ(issue.name, "recording_ranks_merged");
  EXPECT_FALSE(issue.isProblem());
  EXPECT_EQ(issue.count, 2u);
  EXPECT_NE(issue.description.find("2 processes are ranks of a distributed job (0, 1), merged"), std::string::npos)
      << issue.description;
  EXPECT_NE(issue.description.find("record -o DIR/"), std::string::npos);
}

TEST(ProgramRecording, AKilledProgramStillGivesATraceThatLoads) {
  ProgramRecording rec(fake({"killed", "10"}));
  ASSERT_TRUE(rec.start()) << rec.error();
  ProgramRecordingResult r = rec.collect(nullptr);
  EXPECT_EQ(rec.waitForExit(nullptr), 128 + SIGKILL);
  ASSERT_EQ(r.processes.size(), 1u);
  EXPECT_FALSE(r.processes[0].cleanEnd);
  Trace t = roundTrip(r.records, "program_recording_killed");
  EXPECT_EQ(kernelsIn(t), 10u);
  // The file says it ended early, whoever opens it later.
  const ImportIssue* early = t.issues.find("recording_ended_early");
  ASSERT_NE(early, nullptr);
  EXPECT_TRUE(early->isProblem());
  EXPECT_EQ(early->count, 1u);
  EXPECT_NE(early->description.find(std::to_string(r.processes[0].processId)), std::string::npos) << early->description;
}

TEST(ProgramRecording, ACleanRecordingCarriesNoIssue) {
  ProgramRecording rec(fake({"kernels", "3", "0"}));
  ASSERT_TRUE(rec.start()) << rec.error();
  ProgramRecordingResult r = rec.collect(nullptr);
  rec.waitForExit(nullptr);
  EXPECT_TRUE(r.records.issues.empty());
  Trace t = roundTrip(r.records, "program_recording_clean");
  for (const auto& issue : t.issues.all()) EXPECT_NE(issue.name.rfind("recording_", 0), 0u) << issue.name;
}

// Snapshots while it records: each holds at least what the one before did,
// the last no more than the final result, and their count follows the
// interval (the program sends a kernel every 10 ms for about a second).
TEST(ProgramRecording, LiveSnapshotsGrowWhileItRecords) {
  ProgramRecording rec(fake({"forever"}));
  ASSERT_TRUE(rec.start()) << rec.error();
  std::vector<std::size_t> kernels;
  std::vector<bool> inProgress;
  LiveUpdates live;
  live.interval = std::chrono::milliseconds(100);
  live.deliver = [&](ProgramRecordingResult&& snapshot) {
    kernels.push_back(snapshot.records.kernels.size());
    inProgress.push_back(snapshot.inProgress);
    EXPECT_TRUE(snapshot.records.issues.empty()) << snapshot.records.issues.front().name;
  };
  StopRequest stop;
  std::thread user([&stop] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    stop.forward = SIGINT;
    stop.count = 1;
  });
  ProgramRecordingResult r = rec.collect(&stop, &live);
  user.join();
  rec.waitForExit(&stop);
  ASSERT_GE(kernels.size(), 5u);
  EXPECT_LE(kernels.size(), 12u);
  EXPECT_TRUE(std::is_sorted(kernels.begin(), kernels.end()));
  EXPECT_GT(kernels.back(), kernels.front());
  EXPECT_LE(kernels.back(), r.records.kernels.size());
  for (bool b : inProgress) EXPECT_TRUE(b);
  EXPECT_FALSE(r.inProgress);
}

// The app's Stop with the program left running: recording ends at once, no
// signal reaches the program, and it is reaped on its own later.
TEST(ProgramRecording, StopNowLeavesTheProgramRunning) {
  ProgramRecording rec(fake({"forever"}));
  ASSERT_TRUE(rec.start()) << rec.error();
  StopRequest stop;
  std::thread user([&stop] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop.now = true;
  });
  auto t0 = std::chrono::steady_clock::now();
  ProgramRecordingResult r = rec.collect(&stop);
  user.join();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
  EXPECT_EQ(r.stopReason, StopReason::Stopped);
  const pid_t pid = rec.childPid();
  EXPECT_EQ(::kill(pid, 0), 0) << "the program still runs";
  rec.releaseProgram();
  ASSERT_EQ(r.processes.size(), 1u);
  EXPECT_FALSE(r.processes[0].cleanEnd);
  const ImportIssue* note = nullptr;
  for (const auto& issue : r.records.issues) {
    EXPECT_NE(issue.name, "recording_ended_early") << "a running program did not end early";
    if (issue.name == "recording_stopped_early") note = &issue;
  }
  ASSERT_NE(note, nullptr);
  EXPECT_FALSE(note->isProblem());
  ::kill(pid, SIGKILL);
}

TEST(ProgramRecording, RunsInTheGivenFolderWithTheGivenEnvironment) {
  const auto out = std::filesystem::temp_directory_path() / ("program_env_" + std::to_string(::getpid()));
  const auto folder = std::filesystem::temp_directory_path() / ("program_dir_" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  ProgramOptions o = fake({"environment", out.string()});
  o.workingDirectory = folder.string();
  o.environment = {"GAPSCOPE_TEST_VALUE=a b=c", "PYTHONPATH=/user/site"};
  o.torchOps = true;
  o.torchOpsDir = "/gapscope/torch_ops";
  ProgramRecording rec(o);
  ASSERT_TRUE(rec.start()) << rec.error();
  ProgramRecordingResult r = rec.collect(nullptr);
  EXPECT_EQ(rec.waitForExit(nullptr), 0);
  EXPECT_EQ(r.records.kernels.size(), 1u);
  std::ifstream in(out);
  std::string cwd, value, pythonPath;
  std::getline(in, cwd);
  std::getline(in, value);
  std::getline(in, pythonPath);
  EXPECT_EQ(std::filesystem::canonical(cwd), std::filesystem::canonical(folder));
  EXPECT_EQ(value, "a b=c");
  EXPECT_EQ(pythonPath, "/gapscope/torch_ops:/user/site") << "the torch-ops folder first, the user's path kept";
  std::filesystem::remove(out);
  std::filesystem::remove_all(folder);
}

TEST(ProgramRecording, AMissingWorkingDirectoryIsAnErrorBeforeAnythingRuns) {
  ProgramOptions o = fake({"kernels", "1", "0"});
  o.workingDirectory = "/nonexistent/gapscope-no-such-folder";
  ProgramRecording rec(o);
  EXPECT_FALSE(rec.start());
  EXPECT_NE(rec.error().find("/nonexistent/gapscope-no-such-folder does not exist"), std::string::npos) << rec.error();
}

TEST(ProgramRecording, CaptureRangeKeepsOnlyWhatIsInside) {
  ProgramOptions o = fake({"capture"});
  o.captureRange = CaptureRange::CudaProfilerApi;
  ProgramRecording rec(o);
  ASSERT_TRUE(rec.start()) << rec.error();
  ProgramRecordingResult r = rec.collect(nullptr);
  EXPECT_EQ(rec.waitForExit(nullptr), 0);
  ASSERT_EQ(r.processes.size(), 1u);
  // Launches 3 and 4 (and their kernels) start inside [30 us, 50 us).
  EXPECT_EQ(r.records.kernels.size(), 2u);
  EXPECT_EQ(r.records.apiCalls.size(), 2u);
  EXPECT_EQ(r.processes[0].outsideCapture, 8u);
}

TEST(ProgramRecording, ARequestToStopEndsRecordingAndReachesTheProgram) {
  ProgramRecording rec(fake({"forever"}));
  ASSERT_TRUE(rec.start()) << rec.error();
  StopRequest stop;
  std::thread user([&stop] {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    stop.forward = SIGINT;  // as `kill -INT` of the recorder would
    stop.count = 1;
  });
  ProgramRecordingResult r = rec.collect(&stop);
  user.join();
  EXPECT_EQ(r.stopReason, StopReason::Interrupted);
  EXPECT_EQ(rec.waitForExit(&stop), 128 + SIGINT);
  ASSERT_EQ(r.processes.size(), 1u);
  EXPECT_GT(r.records.kernels.size(), 5u);
  Trace t = roundTrip(r.records, "program_recording_interrupted");
  EXPECT_EQ(kernelsIn(t), r.records.kernels.size());
}

TEST(ProgramRecording, DurationStopsRecordingAndKillOnStopEndsTheProgram) {
  ProgramOptions o = fake({"forever"});
  o.durationSeconds = 0.3;
  o.killOnStop = true;
  ProgramRecording rec(o);
  ASSERT_TRUE(rec.start()) << rec.error();
  auto t0 = std::chrono::steady_clock::now();
  ProgramRecordingResult r = rec.collect(nullptr);
  EXPECT_EQ(r.stopReason, StopReason::Duration);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3));
  EXPECT_EQ(rec.waitForExit(nullptr), 128 + SIGTERM);
  EXPECT_GT(r.records.kernels.size(), 0u);
}

TEST(ProgramRecording, AProgramThatCannotStartIsAnError) {
  ProgramOptions o;
  o.command = {"/nonexistent/gapscope-no-such-program"};
  o.injectionLibrary = "/nonexistent/lib.so";
  ProgramRecording rec(o);
  EXPECT_FALSE(rec.start());
  EXPECT_NE(rec.error().find("cannot start /nonexistent/gapscope-no-such-program"), std::string::npos) << rec.error();
}

#endif
