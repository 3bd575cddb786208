#include "panels/issues_panel.h"

#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "gapscope/model/issue_sources.h"
#include "models/table_format.h"
#include "trace_session.h"

namespace gapscope::app {

namespace {

// Item data: the issue's index in Trace::issues (none on the quirks group).
constexpr int kIssueIndexRole = Qt::UserRole + 1;

}  // namespace

IssuesPanel::IssuesPanel(TraceSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      tree_(new QTreeWidget(this)),
      heading_(new QLabel(this)),
      source_(new QPlainTextEdit(this)),
      show_(new QPushButton(tr("Show on timeline"), this)) {
  setObjectName(QStringLiteral("issuesPanel"));
  tree_->setObjectName(QStringLiteral("issuesTree"));
  tree_->setColumnCount(ColumnCount);
  tree_->setHeaderLabels({tr("Severity"), tr("Issue"), tr("Count"), tr("First at byte"), tr("What it means")});
  tree_->header()->setStretchLastSection(true);
  tree_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  tree_->setSelectionBehavior(QAbstractItemView::SelectRows);
  tree_->setRootIsDecorated(true);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(tree_);
  split->addWidget(buildSourceBox());
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  split->setChildrenCollapsible(false);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(split);

  connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) { showSource(item); });
  connect(tree_, &QTreeWidget::itemDoubleClicked, this, [this] { showOnTimeline(); });
  // The quirks' rows sit indented: the first column grows to keep their severity readable.
  connect(tree_, &QTreeWidget::itemExpanded, this, [this] { tree_->resizeColumnToContents(Severity); });
  connect(show_, &QPushButton::clicked, this, &IssuesPanel::showOnTimeline);
  connect(session_, &TraceSession::traceChanged, this, &IssuesPanel::refresh);
  refresh();
}

// Under the list: the picked issue's first event as written, its heading
// and the way to the timeline.
QWidget* IssuesPanel::buildSourceBox() {
  source_->setObjectName(QStringLiteral("issueSource"));
  source_->setReadOnly(true);
  source_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  source_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
  heading_->setObjectName(QStringLiteral("issueSourceHeading"));
  heading_->setWordWrap(true);
  heading_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  show_->setObjectName(QStringLiteral("issueShowOnTimeline"));
  auto* box = new QWidget(this);
  auto* top = new QHBoxLayout;
  top->setContentsMargins(0, 0, 0, 0);
  top->addWidget(heading_, 1);
  top->addWidget(show_);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(0, 2, 0, 0);
  layout->addLayout(top);
  layout->addWidget(source_, 1);
  return box;
}

QTreeWidgetItem* IssuesPanel::issueItem(const ImportIssue& i, std::size_t index) const {
  auto* item = new QTreeWidgetItem;
  item->setText(Severity, QString::fromUtf8(severityName(i.severity)));
  item->setText(Issue, QString::fromStdString(i.name));
  item->setText(Count, QString::number(i.count));
  item->setText(FirstByte, QString::number(i.firstOffset));
  item->setText(Meaning, QString::fromStdString(i.description));
  item->setTextAlignment(Count, Qt::AlignRight | Qt::AlignVCenter);
  item->setTextAlignment(FirstByte, Qt::AlignRight | Qt::AlignVCenter);
  item->setData(Severity, kIssueIndexRole, QVariant::fromValue<qulonglong>(index));
  return item;
}

void IssuesPanel::refresh() {
  tree_->clear();
  quirks_ = nullptr;
  clearSource(session_->hasTrace() && !session_->trace().issues.empty()
                  ? tr("Pick an issue to see its first occurrence as written in the file.")
                  : tr("No import issues."));
  if (!session_->hasTrace()) return;
  const auto& issues = session_->trace().issues.all();
  for (std::size_t k = 0; k < issues.size(); ++k) {
    if (!issues[k].producerQuirk) tree_->addTopLevelItem(issueItem(issues[k], k));
  }
  if (const std::uint64_t quirks = quirkCount(issues); quirks > 0) {
    quirks_ = new QTreeWidgetItem;
    quirks_->setText(Severity, QString::fromUtf8(severityName(gapscope::Severity::Info)));
    quirks_->setText(Issue, tr("Known producer quirks"));
    quirks_->setText(Count, QString::number(quirks));
    quirks_->setTextAlignment(Count, Qt::AlignRight | Qt::AlignVCenter);
    quirks_->setText(Meaning, tr("Expected in every trace of this producer (Kineto) and understood by gapscope: "
                                 "not problems. Expand for each kind."));
    for (std::size_t k = 0; k < issues.size(); ++k) {
      if (issues[k].producerQuirk) quirks_->addChild(issueItem(issues[k], k));
    }
    tree_->addTopLevelItem(quirks_);
    quirks_->setExpanded(false);
  }
  for (int c = 0; c < Meaning; ++c) tree_->resizeColumnToContents(c);
}

void IssuesPanel::clearSource(const QString& heading) {
  heading_->setText(heading);
  source_->clear();
  show_->setEnabled(false);
  show_->setToolTip(QString());
  shownIssue_.clear();
  firstSlice_ = kNoIndex;
  marked_.clear();
}

void IssuesPanel::showSource(QTreeWidgetItem* item) {
  const QVariant index = item ? item->data(Severity, kIssueIndexRole) : QVariant();
  if (!session_->hasTrace() || !index.isValid()) {
    clearSource(tr("Pick an issue to see its first occurrence as written in the file."));
    return;
  }
  const Trace& trace = session_->trace();
  const ImportIssue& issue = trace.issues.all()[index.toULongLong()];
  const SourceEvent first = sourceEventAt(trace, issue.firstOffset);
  clearSource(QString());
  shownIssue_ = QString::fromStdString(issue.name);
  firstSlice_ = first.slice;
  marked_ = slicesOfIssue(trace, issue.name);
  const QString file = QFileInfo(session_->loaded().path).fileName();
  // Offsets in a .json.gz count the inflated text, not the file's bytes.
  const QString where = file.endsWith(QStringLiteral(".gz"), Qt::CaseInsensitive)
                            ? tr("byte %1 of the inflated text of %2").arg(issue.firstOffset).arg(file)
                            : tr("byte %1 of %2").arg(issue.firstOffset).arg(file);
  if (!first.sourceKept) {
    heading_->setText(tr("%1: first at %2, which cannot be read again (it was read from a pipe or from "
                         "memory).")
                          .arg(shownIssue_, where));
  } else if (first.text.empty()) {
    heading_->setText(tr("%1: at %2, where the file ends: nothing follows.").arg(shownIssue_, where));
  } else {
    heading_->setText(tr("%1: the first occurrence, at %2%3:")
                          .arg(shownIssue_, where,
                               first.cut ? tr(" (its first %1 bytes)").arg(first.text.size()) : QString()));
    source_->setPlainText(utf8(first.text));
  }
  const bool leads = firstSlice_ != kNoIndex || !marked_.empty();
  show_->setEnabled(leads);
  show_->setToolTip(leads ? (marked_.empty() ? tr("Select the slice read from this event")
                                             : tr("Highlight the %1 slices this issue marks and select the "
                                                  "one read from this event (else the earliest)")
                                                   .arg(marked_.size()))
                          : tr("This event made no slice (or one without args to find it by)"));
}

void IssuesPanel::showOnTimeline() {
  const std::uint32_t slice = firstSlice_ != kNoIndex ? firstSlice_ : marked_.empty() ? kNoIndex : marked_.front();
  if (slice == kNoIndex) return;
  if (!marked_.empty()) session_->setHighlights(marked_, tr("import issue %1").arg(shownIssue_));
  session_->selectSlice(slice);
  session_->revealSlice(slice);
}

}  // namespace gapscope::app
