#include "panels/details_panel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include "gapscope/format/duration.h"
#include "gapscope/timeline/slice_queries.h"
#include "models/table_format.h"
#include "trace_session.h"
#include "wrapped_title.h"

namespace gapscope::app {

namespace {

constexpr int kSliceRole = Qt::UserRole + 1;

QString qstr(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

// A time since the start of the trace, exact, with no zeros past its last
// digit: "717.554 ms", not "717.554000 ms" (a trace in whole microseconds).
QString startText(TimeNs sinceStart) {
  const TimeNs unit = format::labelUnitFor(sinceStart);
  TimeNs step = 1;
  while (step < unit && sinceStart % (step * 1000) == 0) step *= 1000;
  return QString::fromStdString(format::formatTimeLabel(sinceStart, step, unit));
}

QString jsonText(const nlohmann::ordered_json& v) {
  if (v.is_string()) return QString::fromStdString(v.get<std::string>());
  return QString::fromStdString(v.dump());
}

}  // namespace

DetailsPanel::DetailsPanel(TraceSession* session, QWidget* parent)
    : QWidget(parent), session_(session), title_(new WrappedTitle(3, this)),
      subtitle_(new WrappedTitle(5, this)),
      tree_(new QTreeWidget(this)) {
  setObjectName(QStringLiteral("detailsPanel"));
  title_->setObjectName(QStringLiteral("detailsTitle"));
  QFont bold = title_->font();
  bold.setBold(true);
  title_->setFont(bold);
  title_->setContentsMargins(6, 4, 6, 4);
  subtitle_->setObjectName(QStringLiteral("detailsSubtitle"));
  subtitle_->setContentsMargins(6, 0, 6, 4);
  tree_->setObjectName(QStringLiteral("detailsTree"));
  tree_->setColumnCount(2);
  tree_->setHeaderLabels({tr("Field"), tr("Value")});
  // The Field column gets at most a share of the width; Value takes the
  // rest, so a long nested key never pushes the values out of sight.
  tree_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
  tree_->header()->setStretchLastSection(true);
  tree_->header()->setMinimumSectionSize(60);
  tree_->setUniformRowHeights(true);
  tree_->setWordWrap(false);
  tree_->setContextMenuPolicy(Qt::ActionsContextMenu);
  auto* copy = new QAction(tr("Copy Value"), tree_);
  connect(copy, &QAction::triggered, this, [this] {
    if (auto* item = tree_->currentItem()) QApplication::clipboard()->setText(item->text(1));
  });
  auto* copyArgs = new QAction(tr("Copy Args as JSON"), tree_);
  connect(copyArgs, &QAction::triggered, this, [this] { QApplication::clipboard()->setText(argsJson_); });
  tree_->addAction(copy);
  tree_->addAction(copyArgs);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(title_);
  layout->addWidget(subtitle_);
  layout->addWidget(tree_);
  connect(tree_, &QTreeWidget::itemActivated, this, &DetailsPanel::onActivated);
  connect(session_, &TraceSession::selectionChanged, this, &DetailsPanel::refresh);
  connect(session_, &TraceSession::traceChanged, this, &DetailsPanel::refresh);
  refresh();
}

QString DetailsPanel::field(const QString& name) const {
  for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
    if (tree_->topLevelItem(i)->text(0) == name) return tree_->topLevelItem(i)->text(1);
  }
  return {};
}

QTreeWidgetItem* DetailsPanel::add(const QString& key, const QString& value, QTreeWidgetItem* parent) {
  auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree_);
  item->setText(0, key);
  item->setText(1, value);
  // A cell may be cut at the pane's width: its tooltip holds all of it.
  item->setToolTip(0, key);
  item->setToolTip(1, value);
  return item;
}

QTreeWidgetItem* DetailsPanel::addSliceLink(const QString& key, std::uint32_t slice, QTreeWidgetItem* parent) {
  const Trace& t = session_->trace();
  const Slice& s = t.slices[slice];
  auto* item = add(key, tr("%1 (%2)").arg(qstr(t.str(s.name)), durationText(s.dur)), parent);
  item->setData(0, kSliceRole, slice);
  QFont f = item->font(1);
  f.setUnderline(true);
  item->setFont(1, f);
  item->setToolTip(1, tr("Double-click to select"));
  return item;
}

void DetailsPanel::refresh() {
  tree_->clear();
  argsJson_.clear();
  title_->setText(QString());
  subtitle_->setText(QString());
  if (!session_->hasTrace()) return;
  const Selection sel = session_->selection();
  if (sel.kind == Selection::Kind::Slice) showSlice(sel.index);
  if (sel.kind == Selection::Kind::Gap) showGap(sel.index);
  fitFieldColumn();
}

void DetailsPanel::fitFieldColumn() {
  tree_->resizeColumnToContents(0);
  constexpr double kMaxFieldShare = 0.45;
  const int cap = static_cast<int>(kMaxFieldShare * tree_->viewport()->width());
  if (tree_->columnWidth(0) > cap) tree_->setColumnWidth(0, std::max(cap, 60));
}

void DetailsPanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  fitFieldColumn();
}

void DetailsPanel::showSlice(std::uint32_t index) {
  const Trace& t = session_->trace();
  const auto& layout = session_->layout();
  const Slice& s = t.slices[index];
  title_->setText(qstr(t.str(s.name)));
  add(tr("Name"), qstr(t.str(s.name)));
  add(tr("Category"), qstr(t.str(s.category)));
  add(tr("Start"), startText(s.start - layout.contentStart()));
  add(tr("Duration"), durationText(s.dur));
  add(tr("Self time"), durationText(timeline::selfTime(t, layout, index)));
  const std::uint32_t lane = layout.laneOfTrack(s.track);
  if (lane != kNoIndex) {
    const auto& l = layout.lanes()[lane];
    add(tr("Lane"), QString::fromStdString(layout.groups()[l.group].name + " / " + l.name));
  }
  add(tr("Depth"), QString::number(s.depth));
  if (s.correlation != kNoCorrelation) add(tr("Correlation"), QString::number(s.correlation));
  // A spilled slice's parent link does not enclose it: no "Parent" row for it.
  if (s.parent != kNoIndex && !(s.flags & kSliceSpilled)) addSliceLink(tr("Parent"), s.parent);
  const std::uint32_t partner = session_->partnerSlice();
  if (partner != kNoIndex) addSliceLink(isGpuActivity(s.kind) ? tr("Launched by") : tr("Launches"), partner);
  if (s.flags & kSliceSpilled) add(tr("Note"), tr("overlapped a sibling without nesting: drawn on an extra row"));
  if (s.flags & kSliceUnclosed) add(tr("Note"), tr("never closed: ends at the end of the trace"));
  if (s.kernelInfo != kNoIndex && s.kernelInfo < t.kernelInfos.size()) {
    const KernelInfo& k = t.kernelInfos[s.kernelInfo];
    auto* cfg = add(tr("Launch"), tr("grid [%1, %2, %3], block [%4, %5, %6]")
                                      .arg(k.grid[0]).arg(k.grid[1]).arg(k.grid[2])
                                      .arg(k.block[0]).arg(k.block[1]).arg(k.block[2]));
    if (k.registersPerThread >= 0) add(tr("Registers per thread"), QString::number(k.registersPerThread), cfg);
    if (k.sharedMemory >= 0) add(tr("Shared memory"), tr("%1 bytes").arg(k.sharedMemory), cfg);
    if (k.occupancyPct >= 0) add(tr("Est. achieved occupancy"), tr("%1 %").arg(k.occupancyPct), cfg);
    cfg->setExpanded(true);
  }
  const std::string raw = t.argsJson(s);
  if (!raw.empty()) {
    auto* args = add(tr("Args"), QString());
    // ordered_json keeps the file's key order and the numbers' exact values.
    const auto doc = nlohmann::ordered_json::parse(raw, nullptr, /*allow_exceptions=*/false);
    if (doc.is_object()) {
      args->setText(1, tr("%n value(s)", "", static_cast<int>(doc.size())));
      for (const auto& [key, value] : doc.items()) addJson(args, QString::fromStdString(key), value);
      argsJson_ = QString::fromStdString(doc.dump(2));
    } else {
      args->setText(1, QString::fromStdString(raw));
      argsJson_ = QString::fromStdString(raw);
    }
    args->setExpanded(true);
  }
  tree_->resizeColumnToContents(0);
}

void DetailsPanel::addJson(QTreeWidgetItem* parent, const QString& key, const nlohmann::ordered_json& value) {
  auto* item = add(key, jsonText(value), parent);
  if (value.is_object()) {
    for (const auto& [k, v] : value.items()) addJson(item, QString::fromStdString(k), v);
  }
}

void DetailsPanel::showGap(std::uint32_t index) {
  const Trace& t = session_->trace();
  const auto& g = session_->gaps().gaps[index];
  title_->setText(tr("GPU idle %1: %2").arg(durationText(g.dur), QString::fromUtf8(analysis::gapCauseLabel(g.cause))));
  add(tr("GPU idle"), durationText(g.dur));
  add(tr("Cause"), QString::fromUtf8(analysis::gapCauseLabel(g.cause)));
  const QString why = QString::fromStdString(analysis::explainGap(t, g));
  subtitle_->setText(why);
  add(tr("Why"), why);
  add(tr("Where"), g.stream >= 0 ? tr("GPU %1, stream %2").arg(g.device).arg(g.stream)
                                 : tr("GPU %1 (no stream busy)").arg(g.device));
  add(tr("Start"), startText(g.start - session_->layout().contentStart()));
  add(tr("HTA class"), QString::fromUtf8(analysis::htaIdleKindName(g.hta)));
  if (g.before != kNoIndex) addSliceLink(tr("GPU op before"), g.before);
  if (g.after != kNoIndex) addSliceLink(tr("GPU op after"), g.after);
  if (g.launch != kNoIndex) addSliceLink(tr("Its launch call"), g.launch);
  if (g.syncCall != kNoIndex) addSliceLink(tr("Blocking call"), g.syncCall);
  const auto ops = analysis::cpuOpsOf(session_->gaps(), g);
  if (!ops.empty()) {
    auto* blame = add(tr("CPU work in the gap"), tr("self time on the launching thread"));
    for (const auto& op : ops) {
      add(op.isUntraced ? tr("(untraced)") : qstr(t.str(op.name)), durationText(op.selfNs), blame);
    }
    blame->setExpanded(true);
  }
  tree_->resizeColumnToContents(0);
}

void DetailsPanel::onActivated(QTreeWidgetItem* item) {
  const QVariant v = item->data(0, kSliceRole);
  if (!v.isValid()) return;
  const auto slice = v.value<std::uint32_t>();
  session_->selectSlice(slice);
  session_->revealSlice(slice);
}

}  // namespace gapscope::app
