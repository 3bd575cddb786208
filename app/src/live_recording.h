// Recording the user's own program from the app, shown live: the program
// runs with the injection (gpu::ProgramRecording) on a recording thread;
// what has arrived is taken as a snapshot every 200 ms (less often when a
// snapshot takes long: gpu::LiveUpdates), and a second thread turns the
// newest snapshot into a trace, writes it to the recording's file (a whole,
// loadable trace, written atomically) and only then analyses it and hands
// it to the GUI. A snapshot that arrives while the previous one is still
// being processed replaces the waiting one: the view always moves to the
// newest data and never falls behind.
#pragma once

#include <QObject>
#include <QString>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "gapscope/gpu/program_recorder.h"
#include "loaded_trace.h"

namespace gapscope::app {

struct LiveRecordingEnd {
  LoadedTrace loaded;     // the final trace (saved); invalid when nothing could be saved
  QString error;          // why the program could not start or the file could not be written
  QString summary;        // "stopped: the program ended; 2 processes; ..." for the status bar
  int exitStatus = -1;    // the program's, as a shell gives it; -1 when it runs on
};

class LiveRecording : public QObject {
  Q_OBJECT

 public:
  LiveRecording(gpu::ProgramOptions options, QString savePath, QObject* parent = nullptr);
  // Stops recording at once and waits for the final file; a program that
  // was to end on Stop gets SIGTERM and, 3 s later, SIGKILL.
  ~LiveRecording() override;

  // Starts the program; false and `error` when it could not be started.
  bool start(QString* error);
  // Ends the recording now; ends the program too when options.killOnStop
  // (it then gets a few seconds to flush its last records).
  void stop();
  bool stopping() const { return stopRequested_; }
  const QString& savePath() const { return savePath_; }
  const gpu::ProgramOptions& options() const { return options_; }

 signals:
  // On the GUI thread. `snapshot`: a newer state of the recording, already
  // on disk; `finished` once, last.
  void snapshot(const gapscope::app::LoadedTrace& loaded, qulonglong records);
  void finished(const gapscope::app::LiveRecordingEnd& end);

 private:
  struct Pending {
    gpu::ProgramRecordingResult result;
    bool final = false;
  };
  void record();
  void process();
  void offer(gpu::ProgramRecordingResult&& result, bool final);
  // Converts, saves, analyses; false (and `error`) when it could not be saved.
  bool build(gpu::RecordSet&& records, LoadedTrace* loaded, QString* error) const;

  gpu::ProgramOptions options_;
  QString savePath_;
  std::unique_ptr<gpu::ProgramRecording> recording_;
  gpu::StopRequest stop_;
  std::atomic<bool> stopRequested_{false};
  std::atomic<bool> closing_{false};  // the window is going: no waiting on the program
  std::thread recorder_;
  std::thread processor_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<Pending> pending_;  // the newest snapshot (or the final result) not yet processed
  std::atomic<int> exitStatus_{-1};
};

}  // namespace gapscope::app
