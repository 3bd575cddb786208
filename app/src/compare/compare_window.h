// Two runs side by side: run A's timeline over run B's, both at one zoom
// and aligned at a chosen step (step N of A over step N of B), each with
// its own gap overlay and utilisation strip; the verdict on top and the
// Compare dock below (compare_panel.h). Both files are read at once, on two
// workers, and compared on a worker; a file that fails to load is named in
// the message and the other one stays shown. File > Export Comparison
// writes the comparison report (html, md, json, csv).
#pragma once

#include <QFutureWatcher>
#include <QMainWindow>

#include <array>
#include <atomic>
#include <memory>
#include <utility>
#include <vector>

#include "compare/recordings_reader.h"
#include "gapscope/report/comparison_report.h"
#include "gapscope/report/report.h"
#include "loaded_trace.h"

class QAction;
class QComboBox;
class QLabel;

namespace gapscope::app {

class ComparePanel;
class ScaleLink;
class TimelineView;
class TraceLoader;
class TraceSession;
struct LoadOutcome;

class CompareWindow : public QMainWindow {
  Q_OBJECT

 public:
  enum Side : int { A = 0, B = 1 };

  explicit CompareWindow(QWidget* parent = nullptr);
  ~CompareWindow() override;

  // Reads both files at once and shows each as it comes in.
  void openPair(const QString& pathA, const QString& pathB);
  // Run A is open already (the main window's trace): reads B only.
  void compareWith(const LoadedTrace& a, const QString& pathB);

  TraceSession* session(Side side) const { return sessions_[side]; }
  TimelineView* view(Side side) const { return views_[side]; }
  // The step both timelines are aligned at (index into the steps), -1 when
  // aligned at the start of the runs' GPU work.
  int alignedStep() const;
  void alignAtStep(int index);
  // Aligns at the step numbered `number` in run `side` (its index there);
  // false where that run has no such step among those both runs have.
  bool alignAtStepNumbered(int side, qint64 number);
  // Several recordings a side (docs/compare.md, "Several recordings of
  // each side"): reads `paths` as further recordings of run `side` for
  // their step times, then shows each side's typical recording (reading it
  // where another one is shown) and compares those two, telling the change
  // against the recordings' spread. The runs shown first are the first
  // recording of each side.
  void addRecordings(Side side, const QStringList& paths);
  // Each side's recordings so far; empty while each side is one.
  const std::array<std::vector<compare::Recording>, 2>& recordings() const { return recordings_; }
  QString lastError() const { return lastError_; }
  ComparePanel* panel() const { return panel_; }
  // The comparison of the two runs; nullptr until both are in and compared.
  const report::ComparisonReport* comparison() const { return comparison_.get(); }
  QString verdictText() const;
  // Writes the comparison report; "" on success, else what failed.
  QString exportComparison(const QString& path, report::ReportFormat format);

 signals:
  // Both runs are shown (or one failed and the other is shown alone).
  void pairReady();
  // The comparison of the two runs is computed and shown.
  void comparisonReady();
  // addRecordings() has read its files (a comparison follows).
  void recordingsRead();

 private:
  void load(Side side, const QString& path);
  void onLoaded(Side side, const LoadOutcome& outcome);
  void showRun(Side side, const LoadedTrace& loaded);
  void onBothIn();
  void fillStepChoice();
  const std::vector<analysis::StepStats>& steps(Side side) const;
  QWidget* buildRunPane(Side side);
  void buildMenus();
  void startComparison();
  void showComparison(std::shared_ptr<const report::ComparisonReport> comparison);
  void chooseExportPath();
  void chooseRecordings(Side side);
  void onRecordingsRead();
  void showTypicalRecordings();
  QString runTitle(Side side, const LoadedTrace& loaded) const;
  bool dropUnreadRecording(Side side, const QString& path);
  QStringList newRecordings(const QStringList& paths);

  std::array<TraceSession*, 2> sessions_{};
  std::array<TimelineView*, 2> views_{};
  std::array<QLabel*, 2> titles_{};
  std::array<TraceLoader*, 2> loaders_{};
  std::array<bool, 2> pending_{false, false};
  ScaleLink* link_ = nullptr;
  QComboBox* stepChoice_ = nullptr;
  QLabel* verdict_ = nullptr;  // wraps: the verdict is a few sentences
  QLabel* warnings_ = nullptr;
  ComparePanel* panel_ = nullptr;
  QAction* exportAction_ = nullptr;
  QFutureWatcher<std::shared_ptr<const report::ComparisonReport>> comparing_;
  std::shared_ptr<const report::ComparisonReport> comparison_;
  std::array<std::vector<compare::Recording>, 2> recordings_;
  // The shown runs as recordings (worked out beside the first added files only).
  struct ReadOutcome {
    RecordingsRead read;
    std::array<compare::Recording, 2> shown;
  };
  QFutureWatcher<ReadOutcome> readingRecordings_;
  // Set when the window closes: the reader stops at once.
  std::shared_ptr<std::atomic<bool>> stopReading_ = std::make_shared<std::atomic<bool>>(false);
  Side readingSide_ = A;
  QString lastError_;
};

}  // namespace gapscope::app
