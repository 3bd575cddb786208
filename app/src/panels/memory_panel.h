// The Memory dock: for one device, its peaks and counts, memory by
// operator, every allocation, and the allocations live at a time (the peak
// until a point of a memory lane is clicked). With a range selected, the
// analysis of the events inside it (worked out off the GUI thread).
// Double-clicking an allocation selects the operator that made it.
#pragma once

#include <QWidget>

#include <memory>
#include <vector>

#include "gapscope/memory/memory.h"
#include "panels/latest_job.h"

class QComboBox;
class QLabel;
class QTabWidget;

namespace gapscope::app {

class ReportTableModel;
class TablePanel;
class TraceSession;

class MemoryPanel : public QWidget {
  Q_OBJECT

 public:
  explicit MemoryPanel(TraceSession* session, QWidget* parent = nullptr);

  QComboBox* deviceBox() const { return device_; }
  QLabel* summary() const { return summary_; }
  QTabWidget* tabs() const { return tabs_; }
  ReportTableModel* byOpModel() const { return byOp_; }
  ReportTableModel* allocationsModel() const { return allocations_; }
  ReportTableModel* liveModel() const { return live_; }
  TimeNs liveTime() const { return liveTs_; }
  // Lists the allocations live on `device` at `ts` (a memory lane click).
  void showLiveAt(std::int32_t device, TimeNs ts);
  void waitForAnalysis();  // tests

 signals:
  void liveShown();  // the window raises the dock

 private:
  void onTraceChanged();
  void onRangeChanged();
  void setAnalysis(std::shared_ptr<const memory::MemoryAnalysis> memory);
  void showDevice();
  void updateLive();
  // The live tab's line: at the live time, what the curve holds and which allocations.
  QString liveText(const memory::DeviceMemory& d, std::int64_t listedBytes) const;
  void selectAllocatingOp(const std::vector<const memory::Allocation*>& rows, int row);
  std::int32_t currentDevice() const;
  const memory::DeviceMemory* deviceMemory() const;
  TimeNs origin() const;

  TraceSession* session_;
  QComboBox* device_;
  QLabel* summary_;
  QLabel* liveLabel_;
  QTabWidget* tabs_;
  ReportTableModel* byOp_;
  ReportTableModel* allocations_;
  ReportTableModel* live_;
  TablePanel* liveTable_;
  std::shared_ptr<const memory::MemoryAnalysis> memory_;
  std::vector<const memory::Allocation*> allocationRows_;
  std::vector<const memory::Allocation*> liveRows_;
  TimeNs liveTs_ = 0;
  bool livePicked_ = false;  // a time picked by a click (else the peak)
  LatestJob<std::shared_ptr<const memory::MemoryAnalysis>> job_;
};

}  // namespace gapscope::app
