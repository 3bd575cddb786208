// The Steps dock: the per-step table (report::stepTable: step time, GPU
// window, busy, utilisation, idle by cause, kernels and launches per step
// and device). Clicking a step zooms the timeline to it and selects its
// time range, so the other tables show that step alone.
#pragma once

#include <QWidget>

namespace gapscope::app {

class ReportTableModel;
class TablePanel;
class TraceSession;

class StepsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit StepsPanel(TraceSession* session, QWidget* parent = nullptr);
  ReportTableModel* model() const { return model_; }
  TablePanel* table() const { return table_; }
  // What clicking row `row` does.
  void pickStep(int row);

 private:
  void onTraceChanged();

  TraceSession* session_;
  ReportTableModel* model_;
  TablePanel* table_;
};

}  // namespace gapscope::app
