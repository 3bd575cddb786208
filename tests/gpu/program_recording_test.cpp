// `record -- CMD` end to end without a GPU: CMD is fake_cuda_program, which
// sends fabricated records through the real channel and frame format the
// injection library uses. The recorder starts it, follows its children,
// merges, stops on request, and the trace it makes is written and read back.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <set>
#include <thread>

#include "gapscope/gpu/program_recorder.h"
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

TEST(ProgramRecording, AKilledProgramStillGivesATraceThatLoads) {
  ProgramRecording rec(fake({"killed", "10"}));
  ASSERT_TRUE(rec.start()) << rec.error();
  ProgramRecordingResult r = rec.collect(nullptr);
  EXPECT_EQ(rec.waitForExit(nullptr), 128 + SIGKILL);
  ASSERT_EQ(r.processes.size(), 1u);
  EXPECT_FALSE(r.processes[0].cleanEnd);
  Trace t = roundTrip(r.records, "program_recording_killed");
  EXPECT_EQ(kernelsIn(t), 10u);
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
