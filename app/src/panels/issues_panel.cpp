#include "panels/issues_panel.h"

#include <QHeaderView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "trace_session.h"

namespace gapscope::app {

IssuesPanel::IssuesPanel(TraceSession* session, QWidget* parent)
    : QWidget(parent), session_(session), tree_(new QTreeWidget(this)) {
  setObjectName(QStringLiteral("issuesPanel"));
  tree_->setObjectName(QStringLiteral("issuesTree"));
  tree_->setColumnCount(ColumnCount);
  tree_->setHeaderLabels({tr("Severity"), tr("Issue"), tr("Count"), tr("First at byte"), tr("What it means")});
  tree_->header()->setStretchLastSection(true);
  tree_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  tree_->setSelectionBehavior(QAbstractItemView::SelectRows);
  tree_->setRootIsDecorated(true);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(tree_);
  connect(session_, &TraceSession::traceChanged, this, &IssuesPanel::refresh);
  refresh();
}

QTreeWidgetItem* IssuesPanel::issueItem(const ImportIssue& i) const {
  auto* item = new QTreeWidgetItem;
  item->setText(Severity, QString::fromUtf8(severityName(i.severity)));
  item->setText(Issue, QString::fromStdString(i.name));
  item->setText(Count, QString::number(i.count));
  item->setText(FirstByte, QString::number(i.firstOffset));
  item->setText(Meaning, QString::fromStdString(i.description));
  item->setTextAlignment(Count, Qt::AlignRight | Qt::AlignVCenter);
  item->setTextAlignment(FirstByte, Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

void IssuesPanel::refresh() {
  tree_->clear();
  quirks_ = nullptr;
  if (!session_->hasTrace()) return;
  const auto& issues = session_->trace().issues.all();
  for (const ImportIssue& i : issues) {
    if (!i.producerQuirk) tree_->addTopLevelItem(issueItem(i));
  }
  if (const std::uint64_t quirks = quirkCount(issues); quirks > 0) {
    quirks_ = new QTreeWidgetItem;
    quirks_->setText(Severity, QString::fromUtf8(severityName(gapscope::Severity::Info)));
    quirks_->setText(Issue, tr("Known producer quirks"));
    quirks_->setText(Count, QString::number(quirks));
    quirks_->setTextAlignment(Count, Qt::AlignRight | Qt::AlignVCenter);
    quirks_->setText(Meaning, tr("Expected in every trace of this producer (Kineto) and understood by gapscope: "
                                 "not problems. Expand for each kind."));
    for (const ImportIssue& i : issues) {
      if (i.producerQuirk) quirks_->addChild(issueItem(i));
    }
    tree_->addTopLevelItem(quirks_);
    quirks_->setExpanded(false);
  }
  for (int c = 0; c < Meaning; ++c) tree_->resizeColumnToContents(c);
}

}  // namespace gapscope::app
