#include "panels/issues_panel.h"

#include <QHeaderView>
#include <QTableWidget>
#include <QVBoxLayout>

#include "trace_session.h"

namespace gapscope::app {

IssuesPanel::IssuesPanel(TraceSession* session, QWidget* parent)
    : QWidget(parent), session_(session), table_(new QTableWidget(this)) {
  setObjectName(QStringLiteral("issuesPanel"));
  table_->setObjectName(QStringLiteral("issuesTable"));
  table_->setColumnCount(5);
  table_->setHorizontalHeaderLabels({tr("Severity"), tr("Issue"), tr("Count"), tr("First at byte"), tr("What it means")});
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(table_);
  connect(session_, &TraceSession::traceChanged, this, &IssuesPanel::refresh);
  refresh();
}

void IssuesPanel::refresh() {
  table_->setRowCount(0);
  if (!session_->hasTrace()) return;
  const auto& issues = session_->trace().issues.all();
  table_->setRowCount(static_cast<int>(issues.size()));
  for (int r = 0; r < static_cast<int>(issues.size()); ++r) {
    const ImportIssue& i = issues[static_cast<std::size_t>(r)];
    const auto cell = [&](int c, const QString& text) {
      auto* item = new QTableWidgetItem(text);
      if (c == 2 || c == 3) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      table_->setItem(r, c, item);
    };
    cell(0, QString::fromUtf8(severityName(i.severity)));
    cell(1, QString::fromStdString(i.name));
    cell(2, QString::number(i.count));
    cell(3, QString::number(i.firstOffset));
    cell(4, QString::fromStdString(i.description));
  }
  table_->resizeColumnsToContents();
}

}  // namespace gapscope::app
