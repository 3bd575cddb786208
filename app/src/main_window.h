// The main window: the timeline in the middle (a welcome page until a trace
// is open), the details on the right, the tables and charts below, a search
// box in the tool bar, load progress and import issues in the status bar.
// Dock layout, recent files and the theme persist in QSettings.
#pragma once

#include <QFutureWatcherBase>
#include <QMainWindow>
#include <QPointer>
#include <QStringList>

#include "gapscope/report/report.h"

#ifdef GAPSCOPE_APP_HAVE_RECORDER
#include "gapscope/gpu/program_recorder.h"
#endif

class QAction;
class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QMenu;
class QProgressBar;
class QStackedWidget;
class QToolButton;
class QPushButton;
class QDockWidget;

namespace gapscope::app {

class ChartsPanel;
class CompareWindow;
class DetailsPanel;
class DockRoom;
class ElidedLabel;
class FlameGraphPanel;
class MemoryPanel;
class GapsPanel;
class IssuesPanel;
class KernelsPanel;
class LiveRecording;
class OpsPanel;
class RanksWindow;
class StepsPanel;
class TimelineView;
class TimelineWidget;
class TraceLoader;
class TraceSession;
struct LiveRecordingEnd;
struct LoadOutcome;
struct LoadedTrace;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Starts loading `path` off the GUI thread; false when a load is running.
  bool openTrace(const QString& path);
  // Shows the welcome page, which offers the bundled sample trace.
  void offerSample();
  // Opens a bundled sample (first one when `name` is empty).
  bool openSample(const QString& name = {});
  // Names of the sample traces compiled into the binary.
  static QStringList bundledSamples();

  TraceSession* session() const { return session_; }
  TraceLoader* loader() const { return loader_; }
  TimelineView* timelineView() const { return timelineView_; }
  TimelineWidget* timeline() const;
  DetailsPanel* details() const { return details_; }
  OpsPanel* ops() const { return ops_; }
  KernelsPanel* kernels() const { return kernels_; }
  GapsPanel* gaps() const { return gaps_; }
  ChartsPanel* charts() const { return charts_; }
  StepsPanel* steps() const { return steps_; }
  IssuesPanel* issues() const { return issues_; }
  FlameGraphPanel* callTree() const { return callTree_; }
  MemoryPanel* memory() const { return memory_; }
  QString lastError() const { return lastError_; }
  // Builds and writes a hotspot report of the open trace on a worker thread;
  // emits reportExported when done. False when no trace is open.
  bool exportReport(const QString& path, report::ReportFormat format);
  QStringList recentFiles() const;
  // Opens the compare window with the open trace as run A and `pathB` as
  // run B (read on a worker); nullptr when no trace is open.
  CompareWindow* compareWith(const QString& pathB);
  // Opens the compare window on two files, both read at once.
  CompareWindow* openComparison(const QString& pathA, const QString& pathB);
  // Recent comparisons, newest first, as (A, B) path pairs.
  QList<QPair<QString, QString>> recentComparisons() const;
  // Opens a Ranks window on a rank set (a directory, several files or glob
  // patterns), read on its worker; its clicks open ranks here.
  RanksWindow* openRanks(const QStringList& arguments);
  // Opens `path` (unless it is open already) and then selects and zooms to
  // step `step` as the Steps dock does (RanksWindow::kNoStep: none).
  void openTraceAtStep(const QString& path, qint64 step);
  // The compare window on two ranks' files, aligned at step `step` once
  // both are in (RanksWindow::kNoStep: at the start of their GPU work).
  CompareWindow* compareRanks(const QString& fileA, const QString& fileB, qint64 step);

  // Recording the user's program, shown live (the Record dialog's "Your
  // program"; tests call it directly). False, with lastError(), when it
  // could not start or something is already loading or recording.
#ifdef GAPSCOPE_APP_HAVE_RECORDER
  bool recordProgram(const gpu::ProgramOptions& options);
#endif
  bool recording() const { return live_ != nullptr; }
  // Stop: ends the recording (and the program, when it was asked to end on
  // Stop); pressed again while the program ends, kills it.
  void stopRecording();

 signals:
  void traceLoaded(const QString& path);
  void loadFailed(const QString& message);
  void reportExported(const QString& path, const QString& error);  // error empty on success
  // A live recording's end: the final trace is open (or `error` says why not).
  void recordingFinished(const QString& summary, const QString& error);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void buildActions();
  void buildMenus();
  void buildToolBar();
  void buildDocks();
  void buildStatusBar();
  QWidget* buildWelcome();
  QWidget* buildReadBanner();
  void showReadBanner(const LoadedTrace& t);
  void showRange();
  QDockWidget* addDock(QWidget* content, const QString& title, const QString& name, Qt::DockWidgetArea area);
  void restoreSettings();
  void saveSettings();
  void applyTheme(const QString& theme);
  void resetLayout();

  void chooseFile();
  void addRecent(const QString& path);
  void updateRecent();
  void onLoadStarted(const QString& what);
  void onLoadProgress(qulonglong done, qulonglong total, int stage);
  void onLoadFinished(const LoadOutcome& outcome);
  void onTraceChanged();
  void updateSearchCount();
  void showShortcuts();
  void showAbout();
  void setupRecorder();
  void startRecording();
  void buildLiveBar();
  void onLiveSnapshot(const LoadedTrace& loaded, qulonglong records);
  void onLiveFinished(const LiveRecordingEnd& end);
  void chooseReportPath();
  void chooseComparison();
  void buildRanksActions();
  void chooseRanksDirectory();
  void chooseRankFiles();
  void showPendingStep(const QString& loadedPath);
  void showStep(qint64 step);
  CompareWindow* newCompareWindow();
  void addRecentComparison(const QString& a, const QString& b);
  void updateRecentComparisons();

  TraceSession* session_;
  TraceLoader* loader_;
  QStackedWidget* stack_;
  QWidget* readBanner_ = nullptr;
  QLabel* readBannerText_ = nullptr;
  QWidget* welcome_;
  TimelineView* timelineView_;
  DetailsPanel* details_;
  OpsPanel* ops_;
  KernelsPanel* kernels_;
  GapsPanel* gaps_;
  ChartsPanel* charts_;
  StepsPanel* steps_;
  IssuesPanel* issues_;
  FlameGraphPanel* callTree_;
  MemoryPanel* memory_;
  QList<QDockWidget*> docks_;
  QByteArray defaultState_;

  QAction* openAction_;
  QAction* recordAction_ = nullptr;
  QAction* exportAction_ = nullptr;
  QAction* compareAction_ = nullptr;
  QAction* openRanksDirectoryAction_ = nullptr;
  QAction* openRankFilesAction_ = nullptr;
  // A rank's step to show once its trace is loaded (openTraceAtStep).
  QString pendingStepPath_;
  qint64 pendingStep_ = -1;
  // On a small screen the bottom docks take at most 35 % of the height and
  // the side docks 30 % of the width.
  DockRoom* dockRoom_ = nullptr;
  QMenu* recentComparisonsMenu_ = nullptr;
  // The recording-availability probe runs on a worker; the window waits for
  // it when closed so no worker outlives the application.
  QPointer<QFutureWatcherBase> recorderProbe_;
  QMenu* recentMenu_;
  QMenu* sampleMenu_;
  QListWidget* recentList_;
  QLineEdit* searchEdit_;
  QLabel* searchCount_;
  ElidedLabel* info_;
  ElidedLabel* rangeInfo_ = nullptr;
  QToolButton* clearRange_ = nullptr;
  QProgressBar* progress_;
  QPushButton* cancel_;
  QToolButton* issuesBadge_;
  QString loadingPath_;
  QString lastError_;
  // The live recording, and its bar in the status bar (what, Follow, Stop).
  LiveRecording* live_ = nullptr;
  bool liveShown_ = false;  // a snapshot of it is on screen
  QWidget* liveBar_ = nullptr;
  QLabel* liveInfo_ = nullptr;
  QCheckBox* follow_ = nullptr;
  QPushButton* stop_ = nullptr;
};

}  // namespace gapscope::app
