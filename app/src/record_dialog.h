// The Record dialog: either one of the bundled CUDA workloads (its variant,
// size and steps), recorded off the GUI thread with gpu::record(), or "Your
// program": a command line, working directory, environment and capture
// range (program_choice.h), recorded live (live_recording.h). Recent
// programs are offered in the command box.
#pragma once

#include <QDialog>

#include "program_choice.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QTabWidget;

namespace gapscope::app {

struct RecordChoice {
  QString workload;
  QString variant;
  int size = 0;
  int steps = 0;
};

class RecordDialog : public QDialog {
  Q_OBJECT

 public:
  explicit RecordDialog(QWidget* parent = nullptr);
  // Which page was accepted.
  bool programChosen() const;
  RecordChoice choice() const;
  ProgramChoice program() const;
  // The recorder's options for program(); valid once the dialog accepted.
  const gpu::ProgramOptions& programOptions() const { return programOptions_; }
  void showProgramPage();
  void setProgram(const ProgramChoice& choice);

  void accept() override;

 private:
  QWidget* makeWorkloadPage();
  QWidget* makeProgramPage();
  void onWorkloadChanged(int index);
  void onRecentPicked(int index);
  void onCommandEdited(const QString& text);
  void updateCaptureName();

  QTabWidget* tabs_;
  // Bundled workload.
  QComboBox* workload_;
  QComboBox* variant_;
  QSpinBox* size_;
  QSpinBox* steps_;
  QLabel* description_;
  QLabel* sizeMeaning_;
  // Your program.
  QComboBox* command_;
  QLineEdit* directory_;
  QPlainTextEdit* environment_;
  QComboBox* capture_;
  QLineEdit* nvtxName_;
  QCheckBox* torchOps_;
  QCheckBox* endProgram_;
  QLabel* programError_;
  bool torchOpsTouched_ = false;
  QString checkedProgram_;    // the program and folder the operators box was last set for
  QString checkedDirectory_;
  QList<ProgramChoice> recent_;
  gpu::ProgramOptions programOptions_;
};

}  // namespace gapscope::app
