// The Record dialog: pick one of the bundled CUDA workloads, its variant,
// size and steps; the main window then records it off the GUI thread with
// gpu::record() and opens the result like a trace file.
#pragma once

#include <QDialog>

class QComboBox;
class QLabel;
class QSpinBox;

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
  RecordChoice choice() const;

 private:
  void onWorkloadChanged(int index);

  QComboBox* workload_;
  QComboBox* variant_;
  QSpinBox* size_;
  QSpinBox* steps_;
  QLabel* description_;
  QLabel* sizeMeaning_;
};

}  // namespace gapscope::app
