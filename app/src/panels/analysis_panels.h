// The three tables of the analyses, each a TablePanel wired to the session:
// operators (with "group by input shapes"), kernels, and launch gaps.
// Double-clicking an operator or kernel highlights its occurrences on the
// timeline and jumps to the longest; picking a gap zooms to it and
// highlights the CPU work blamed for it.
#pragma once

#include <QWidget>

#include <memory>
#include <optional>

#include "gapscope/analysis/kernel_table.h"
#include "gapscope/analysis/ops_table.h"
#include "gapscope/model/types.h"
#include "panels/latest_job.h"

class QCheckBox;
class QLabel;
class QPushButton;

namespace gapscope::app {

class GapListModel;
class KernelTableModel;
class OpTableModel;
class TablePanel;
class TraceSession;

class OpsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit OpsPanel(TraceSession* session, QWidget* parent = nullptr);
  OpTableModel* model() const { return model_; }
  TablePanel* table() const { return table_; }
  QCheckBox* groupByShapes() const { return groupByShapes_; }
  // Blocks until a table being rebuilt off the GUI thread is in (tests).
  void waitForTable();

 private:
  void onTraceChanged();
  void rebuild();
  void onActivated(int row);

  TraceSession* session_;
  OpTableModel* model_;
  TablePanel* table_;
  QCheckBox* groupByShapes_;
  LatestJob<std::shared_ptr<const analysis::OpTable>> job_;
};

class KernelsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit KernelsPanel(TraceSession* session, QWidget* parent = nullptr);
  KernelTableModel* model() const { return model_; }
  TablePanel* table() const { return table_; }
  // Blocks until a table being built for a range is in (tests).
  void waitForTable();

 private:
  void onActivated(int row);
  void onRangeChanged();

  TraceSession* session_;
  KernelTableModel* model_;
  TablePanel* table_;
  LatestJob<std::shared_ptr<const analysis::KernelTable>> job_;
};

class GapsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit GapsPanel(TraceSession* session, QWidget* parent = nullptr);
  GapListModel* model() const { return model_; }
  TablePanel* table() const { return table_; }
  QCheckBox* streamGaps() const { return streamGaps_; }
  // Shows only gaps with lo <= duration < hi (from the histogram); nullopt: all.
  void setDurationRange(std::optional<std::pair<TimeNs, TimeNs>> range);

 private:
  void onSelectionChanged();

  TraceSession* session_;
  GapListModel* model_;
  TablePanel* table_;
  QLabel* rangeLabel_;
  QPushButton* clearRange_;
  QCheckBox* streamGaps_;
};

}  // namespace gapscope::app
