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
  QTableView* view = table_->view();
  view->resizeColumnsToContents();
  // An iteration marker's name repeats on every row and runs to sixty
  // characters ("enumerate(DataLoader)#..._next__"): no wider than a
  // ProfilerStep's, so the figures stay in a 1024 px window (the middle is
  // elided, the tooltip has the name whole; the # column tells rows apart).
  const int cap = view->fontMetrics().horizontalAdvance(QStringLiteral("ProfilerStep#00000 (warm-up)")) + 16;
  if (view->columnWidth(0) > cap) view->setColumnWidth(0, cap);
}

bool StepsPanel::showStep(std::int64_t number) {
  for (int row = 0; row < model_->rowCount(); ++row) {
    if (model_->integer(row, "number") != number) continue;
    table_->selectSourceRow(row);
    pickStep(row);
    return true;
  }
  return false;
}

void StepsPanel::pickStep(int row) {
  if (!session_->hasTrace()) return;
  const std::int64_t number = model_->integer(row, "number");
  for (const analysis::StepStats& s : session_->gaps().steps) {
    if (s.number != number) continue;
    session_->selectStep(s);
    return;
  }
}

}  // namespace gapscope::app
