#include "panels/steps_panel.h"

#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

#include "gapscope/report/report.h"
#include "models/report_table_model.h"
#include "panels/table_panel.h"
#include "trace_session.h"

namespace gapscope::app {

StepsPanel::StepsPanel(TraceSession* session, QWidget* parent)
    : QWidget(parent), session_(session), model_(new ReportTableModel(this)) {
  setObjectName(QStringLiteral("stepsPanel"));
  table_ = new TablePanel(model_, QStringLiteral("stepTable"), 0, this);
  table_->filter()->setPlaceholderText(tr("Filter by step…"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(table_);
  connect(session_, &TraceSession::traceChanged, this, &StepsPanel::onTraceChanged);
  connect(table_, &TablePanel::rowActivated, this, &StepsPanel::pickStep);
  connect(table_, &TablePanel::currentRowChanged, this, &StepsPanel::pickStep);
  onTraceChanged();
}

void StepsPanel::onTraceChanged() {
  model_->setTable(session_->hasTrace() ? report::stepTable(session_->trace(), session_->gaps()) : report::Table{});
  table_->view()->resizeColumnsToContents();
}

void StepsPanel::pickStep(int row) {
  if (!session_->hasTrace()) return;
  const std::int64_t number = model_->integer(row, "number");
  for (const analysis::StepStats& s : session_->gaps().steps) {
    if (s.number != number) continue;
    // The step's CPU range and the GPU work it launched, which runs later.
    TimeRange range{s.cpuStart, s.cpuEnd};
    for (const auto& d : s.devices) range.end = std::max(range.end, d.activeEnd);
    session_->setRange(range);
    session_->reveal(range.start, range.end, kNoIndex, /*fit=*/true);
    return;
  }
}

}  // namespace gapscope::app
