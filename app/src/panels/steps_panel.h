// The Steps dock: the per-step table (report::stepTable: step time, GPU
// window, busy, utilisation, idle by cause, kernels and launches per step
// and device). Clicking a step zooms the timeline to it and selects its
// time range, so the other tables show that step alone.
#pragma once

#include <QWidget>

#include <cstdint>

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
  // Selects the row of step `number` and picks it, as a click would; false
  // when the trace has no such step.
  bool showStep(std::int64_t number);

 private:
  void onTraceChanged();

  TraceSession* session_;
  ReportTableModel* model_;
  TablePanel* table_;
};

}  // namespace gapscope::app
