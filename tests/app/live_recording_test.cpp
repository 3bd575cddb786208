// "Your program" in the app without a GPU: the recorded program is
// fake_cuda_program (tests/gpu), which sends fabricated records through the
// injection's real channel and frame format. The window shows snapshots as
// they arrive, saved before shown, follows the end until the user pans,
// and ends with the final trace open; a killed program leaves a trace that
// says it ended early.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "app_test_support.h"
#include "gapscope/io/chrome_reader.h"
#include "main_window.h"
#include "timeline/timeline_widget.h"
#include "trace_session.h"

#if defined(GAPSCOPE_APP_HAVE_RECORDER) && defined(GAPSCOPE_FAKE_PROGRAM)

#include "program_choice.h"
#include "record_dialog.h"

using namespace gapscope;
using namespace gapscope::app;
using gapscope::app::testing::ensureApp;
using gapscope::app::testing::waitUntil;

namespace {

gpu::ProgramOptions fake(std::vector<std::string> args) {
  gpu::ProgramOptions o;
  o.command = {GAPSCOPE_FAKE_PROGRAM};
  o.command.insert(o.command.end(), args.begin(), args.end());
  o.injectionLibrary = GAPSCOPE_FAKE_PROGRAM;  // never loaded: the fake has no CUDA
  o.graceSeconds = 2;
  o.killOnStop = true;  // as the dialog's "Stop also ends the program" is by default
  return o;
}

std::size_t kernelsIn(const Trace& t) {
  std::size_t n = 0;
  for (const auto& s : t.slices) n += s.kind == SliceKind::Kernel;
  return n;
}

std::size_t kernelsInFile(const QString& path) {
  io::LoadResult r = io::loadChromeTrace(path.toStdString());
  EXPECT_TRUE(r.ok()) << r.error;
  return r.trace ? kernelsIn(*r.trace) : 0;
}

// The programs this test process started and left running (Stop with the
// program running on): found by their parent in /proc, ended here.
void endOwnChildren() {
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream stat(entry.path() / "stat");
    std::string pid, name, state;
    long parent = 0;
    if (stat >> pid >> name >> state >> parent && parent == ::getpid()) ::kill(std::stol(pid), SIGKILL);
  }
}

}  // namespace

TEST(ProgramChoice, CommandLinesSplitAsAShellSplitsThem) {
  ProgramChoice c;
  c.commandLine = R"(python3 -c 'print("a b")' "two words" three\ four "x\"y" -n 5)";
  gpu::ProgramOptions o;
  QString error;
  ASSERT_TRUE(toProgramOptions(c, &o, &error)) << error.toStdString();
  EXPECT_EQ(o.command, (std::vector<std::string>{"python3", "-c", "print(\"a b\")", "two words", "three four", "x\"y", "-n", "5"}));
  EXPECT_TRUE(o.killOnStop);
  EXPECT_EQ(o.captureRange, gpu::CaptureRange::None);
}

TEST(ProgramChoice, WhatCannotRunIsSaidBeforeAnythingRuns) {
  auto errorOf = [](ProgramChoice c) {
    gpu::ProgramOptions o;
    QString error;
    EXPECT_FALSE(toProgramOptions(c, &o, &error));
    return error.toStdString();
  };
  ProgramChoice c;
  EXPECT_NE(errorOf(c).find("Give the command"), std::string::npos);
  c.commandLine = "python3 'train.py";
  EXPECT_NE(errorOf(c).find("unbalanced quote"), std::string::npos);
  c.commandLine = "./train";
  c.environment = {"CUDA_VISIBLE_DEVICES"};
  EXPECT_NE(errorOf(c).find("NAME=VALUE"), std::string::npos);
  c.environment = {"CUDA_VISIBLE_DEVICES=1"};
  c.workingDirectory = "/nonexistent/gapscope-folder";
  EXPECT_NE(errorOf(c).find("does not exist"), std::string::npos);
  c.workingDirectory.clear();
  c.capture = ProgramChoice::Capture::Nvtx;
  EXPECT_NE(errorOf(c).find("NVTX"), std::string::npos);
  c.nvtxName = "ProfilerStep#5";
  gpu::ProgramOptions o;
  QString error;
  ASSERT_TRUE(toProgramOptions(c, &o, &error));
  EXPECT_EQ(o.captureRange, gpu::CaptureRange::Nvtx);
  EXPECT_EQ(o.captureNvtxName, "ProfilerStep#5");
  EXPECT_EQ(o.environment, std::vector<std::string>{"CUDA_VISIBLE_DEVICES=1"});
}

TEST(ProgramChoice, RecentProgramsAreRememberedNewestFirst) {
  ensureApp();
  for (int i = 0; i < kMaxRecentPrograms + 3; ++i) {
    ProgramChoice c;
    c.commandLine = QStringLiteral("./prog %1").arg(i);
    c.environment = {QStringLiteral("N=%1").arg(i)};
    rememberProgram(c);
  }
  ProgramChoice again;
  again.commandLine = QStringLiteral("./prog 5");
  again.capture = ProgramChoice::Capture::CudaProfilerApi;
  again.endProgramOnStop = false;
  rememberProgram(again);
  const QList<ProgramChoice> recent = recentPrograms();
  ASSERT_EQ(recent.size(), kMaxRecentPrograms);
  EXPECT_EQ(recent.front(), again);
  EXPECT_EQ(recent[1].commandLine, QStringLiteral("./prog %1").arg(kMaxRecentPrograms + 2));
  EXPECT_EQ(recent[1].environment, QStringList{QStringLiteral("N=%1").arg(kMaxRecentPrograms + 2)});
  EXPECT_EQ(std::count_if(recent.begin(), recent.end(), [](const ProgramChoice& c) { return c.commandLine == "./prog 5"; }), 1);
}

TEST(RecordDialog, YourProgramPageGivesTheRecorderOptionsOrSaysWhatIsWrong) {
  ensureApp();
  RecordDialog dialog;
  dialog.showProgramPage();
  auto* command = dialog.findChild<QComboBox*>(QStringLiteral("programCommand"));
  auto* torchOps = dialog.findChild<QCheckBox*>(QStringLiteral("programTorchOps"));
  auto* error = dialog.findChild<QLabel*>(QStringLiteral("programError"));
  ASSERT_TRUE(command && torchOps && error);
  command->setEditText(QStringLiteral("python3 train.py --lr 'not closed"));
  EXPECT_TRUE(torchOps->isChecked()) << "python programs get operator ranges by default";
  dialog.accept();
  EXPECT_NE(dialog.result(), QDialog::Accepted);
  EXPECT_FALSE(error->isHidden());
  EXPECT_TRUE(error->text().contains(QStringLiteral("quote")));
  ProgramChoice c;
  c.commandLine = QStringLiteral("./a.out 3");
  c.environment = {QStringLiteral("A=1"), QStringLiteral("B=two words")};
  c.capture = ProgramChoice::Capture::CudaProfilerApi;
  c.endProgramOnStop = false;
  dialog.setProgram(c);
  EXPECT_EQ(dialog.program(), c);
  dialog.accept();
  EXPECT_EQ(dialog.result(), QDialog::Accepted);
  EXPECT_TRUE(dialog.programChosen());
  EXPECT_EQ(dialog.programOptions().command, (std::vector<std::string>{"./a.out", "3"}));
  EXPECT_EQ(dialog.programOptions().environment, (std::vector<std::string>{"A=1", "B=two words"}));
  EXPECT_FALSE(dialog.programOptions().killOnStop);
  EXPECT_EQ(recentPrograms().front(), c);
}

// ./train.py is found where the program will start: the Working directory.
TEST(RecordDialog, AScriptIsTakenForPythonInTheWorkingDirectory) {
  ensureApp();
  QTemporaryDir dir;
  QFile script(dir.filePath(QStringLiteral("train.py")));
  ASSERT_TRUE(script.open(QIODevice::WriteOnly));
  script.write("#!/usr/bin/env python3\nprint('hello')\n");
  script.close();
  script.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
  RecordDialog dialog;
  dialog.showProgramPage();
  auto* command = dialog.findChild<QComboBox*>(QStringLiteral("programCommand"));
  auto* directory = dialog.findChild<QLineEdit*>(QStringLiteral("programDirectory"));
  auto* torchOps = dialog.findChild<QCheckBox*>(QStringLiteral("programTorchOps"));
  ASSERT_TRUE(command && directory && torchOps);
  command->setEditText(QStringLiteral("./train.py --epochs 1"));
  EXPECT_FALSE(torchOps->isChecked()) << "not in gapscope's own folder";
  directory->setText(dir.path());
  EXPECT_TRUE(torchOps->isChecked());
}

TEST(LiveRecording, SnapshotsAreSavedThenShownAndTheViewFollowsUntilThePan) {
  ensureApp();
  MainWindow w;
  w.resize(1280, 800);
  w.show();
  QSignalSpy changed(w.session(), &TraceSession::traceChanged);
  QSignalSpy finished(&w, &MainWindow::recordingFinished);
  ASSERT_TRUE(w.recordProgram(fake({"forever"}))) << w.lastError().toStdString();
  EXPECT_TRUE(w.recording());
  // How old the newest data is when a snapshot reaches the screen: the
  // fake program sends a kernel every 10 ms, and trace time + the trace's
  // base is the wall clock. Printed for docs/recording.md; checked only
  // against an absurd bound (tests check correctness, not speed).
  std::vector<double> staleMs;
  std::vector<double> shownAtMs;
  QObject::connect(w.session(), &TraceSession::traceChanged, [&] {
    const auto& t = w.session()->trace();
    const double now = static_cast<double>(QDateTime::currentMSecsSinceEpoch());
    shownAtMs.push_back(now);
    const double newest = static_cast<double>(w.session()->layout().contentEnd() + t.metadata.baseTimeNanoseconds) / 1e6;
    staleMs.push_back(now - newest);
  });
  // Two snapshots on screen, the second with more kernels than the first.
  ASSERT_TRUE(waitUntil([&] { return changed.count() >= 2; }, 10000));
  const QString path = w.session()->loaded().path;
  const std::size_t shown = kernelsIn(w.session()->trace());
  EXPECT_GE(kernelsInFile(path), shown) << "saved before it is shown";
  TimelineWidget* timeline = w.timeline();
  EXPECT_TRUE(timeline->following());
  EXPECT_GE(timeline->scale().end(), w.session()->layout().contentEnd()) << "the end is in view";
  // Zoomed in, following keeps the end in view at that zoom.
  timeline->zoomAt(8.0, timeline->width() / 2.0);
  const int before = changed.count();
  ASSERT_TRUE(waitUntil([&] { return changed.count() > before; }, 5000));
  EXPECT_TRUE(timeline->following());
  EXPECT_GE(timeline->scale().end(), w.session()->layout().contentEnd());
  EXPECT_GT(timeline->scale().start(), w.session()->layout().contentStart()) << "the zoom was kept";
  // A pan ends follow mode; the next snapshot keeps the view where it is.
  timeline->panBy(-200);
  EXPECT_FALSE(timeline->following());
  const timeline::TimeScale kept = timeline->scale();
  const int beforePan = changed.count();
  ASSERT_TRUE(waitUntil([&] { return changed.count() > beforePan; }, 5000));
  EXPECT_EQ(timeline->scale().start(), kept.start());
  EXPECT_DOUBLE_EQ(timeline->scale().nsPerPixel(), kept.nsPerPixel());
  ASSERT_GE(staleMs.size(), 3u);
  // Data that arrives just after a snapshot waits for the next one: its
  // delay is the spacing of snapshots plus the newest data's age then.
  std::vector<double> worstDelayMs;
  for (std::size_t i = 1; i < shownAtMs.size(); ++i) worstDelayMs.push_back(shownAtMs[i] - shownAtMs[i - 1] + staleMs[i]);
  std::sort(worstDelayMs.begin(), worstDelayMs.end());
  std::sort(staleMs.begin(), staleMs.end());
  std::printf("live snapshots: %zu, newest data on screen %.0f ms old (median), %.0f ms (max); "
              "data waits at most %.0f ms (median over snapshots), %.0f ms (max)\n",
              staleMs.size(), staleMs[staleMs.size() / 2], staleMs.back(), worstDelayMs[worstDelayMs.size() / 2],
              worstDelayMs.back());
  EXPECT_LT(staleMs.back(), 5000.0);
  EXPECT_GT(staleMs.front(), -100.0) << "data from the future: the clocks disagree";
  // Stop ends the program (the default) and opens the final trace.
  w.stopRecording();
  ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 15000));
  EXPECT_FALSE(w.recording());
  EXPECT_EQ(w.session()->loaded().path, path);
  EXPECT_EQ(kernelsIn(w.session()->trace()), kernelsInFile(path));
  EXPECT_GT(kernelsIn(w.session()->trace()), shown);
  EXPECT_TRUE(finished.front().at(0).toString().contains(QStringLiteral("exit status %1").arg(128 + SIGTERM)))
      << finished.front().at(0).toString().toStdString();
  EXPECT_EQ(w.recentFiles().value(0), QFileInfo(path).absoluteFilePath());
  QFile::remove(path);
}

TEST(LiveRecording, AKilledProgramLeavesATraceThatSaysItEndedEarly) {
  ensureApp();
  MainWindow w;
  QSignalSpy finished(&w, &MainWindow::recordingFinished);
  ASSERT_TRUE(w.recordProgram(fake({"killed", "10"}))) << w.lastError().toStdString();
  ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 15000));
  ASSERT_TRUE(w.session()->hasTrace());
  EXPECT_EQ(kernelsIn(w.session()->trace()), 10u);
  EXPECT_NE(w.session()->trace().issues.find("recording_ended_early"), nullptr);
  const QString path = w.session()->loaded().path;
  io::LoadResult again = io::loadChromeTrace(path.toStdString());
  ASSERT_TRUE(again.ok()) << again.error;
  EXPECT_NE(again.trace->issues.find("recording_ended_early"), nullptr) << "the file says so too";
  EXPECT_TRUE(finished.front().at(0).toString().contains(QStringLiteral("exit status %1").arg(128 + SIGKILL)));
  QFile::remove(path);
}

TEST(LiveRecording, StopWithTheProgramLeftRunningAndNothingElseOpensMeanwhile) {
  ensureApp();
  MainWindow w;
  QSignalSpy changed(w.session(), &TraceSession::traceChanged);
  QSignalSpy finished(&w, &MainWindow::recordingFinished);
  gpu::ProgramOptions o = fake({"forever"});
  o.killOnStop = false;
  ASSERT_TRUE(w.recordProgram(o));
  EXPECT_FALSE(w.recordProgram(o)) << "one recording at a time";
  EXPECT_FALSE(w.openTrace(gapscope::app::testing::testData("h200/split_stack_eager.json")));
  ASSERT_TRUE(waitUntil([&] { return changed.count() >= 1; }, 10000));
  w.stopRecording();
  ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 5000));
  const QString summary = finished.front().at(0).toString();
  EXPECT_TRUE(summary.contains(QStringLiteral("still running"))) << summary.toStdString();
  EXPECT_FALSE(summary.contains(QStringLiteral("exit status")));
  EXPECT_NE(w.session()->trace().issues.find("recording_stopped_early"), nullptr);
  QFile::remove(w.session()->loaded().path);
  endOwnChildren();
}

#endif
