#include "panels/analysis_panels.h"

#include <QCheckBox>
#include <QEvent>
#include <QCoreApplication>
#include <QLineEdit>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "gapscope/timeline/slice_queries.h"
#include "models/gap_list_model.h"
#include "models/kernel_table_model.h"
#include "models/op_table_model.h"
#include "models/table_format.h"
#include "panels/table_panel.h"
#include "trace_session.h"

namespace gapscope::app {

namespace {

QVBoxLayout* bareLayout(QWidget* w) {
  auto* layout = new QVBoxLayout(w);
  layout->setContentsMargins(0, 0, 0, 0);
  return layout;
}

// Slices named `name` whose kind is on the right side of the CPU/GPU split.
std::vector<std::uint32_t> occurrences(const Trace& t, const std::string& name, bool gpu,
                                       const std::string* shapes) {
  const std::string_view shapesView = shapes ? std::string_view(*shapes) : std::string_view();
  auto found = timeline::findSlicesNamed(t, name, shapes ? &shapesView : nullptr);
  std::erase_if(found, [&](std::uint32_t s) { return isGpuKind(t.slices[s].kind) != gpu; });
  return found;
}

// The name column takes the room the other columns leave, `minWidth` at
// least: kernel names are long signatures, and cut to 340 px they read alike
// (two tanh and clamp kernels) beside a fifth of the table left blank.
class NameColumnFill : public QObject {
 public:
  NameColumnFill(QTableView* view, int column, int minWidth)
      : QObject(view), view_(view), column_(column), minWidth_(minWidth) {
    setObjectName(kName);
    view->viewport()->installEventFilter(this);
  }
  static constexpr const char* kName = "nameColumnFill";
  void apply() {
    int others = 0;
    for (int c = 0; c < view_->model()->columnCount(); ++c) {
      if (c != column_ && !view_->isColumnHidden(c)) others += view_->columnWidth(c);
    }
    view_->setColumnWidth(column_, std::max(minWidth_, view_->viewport()->width() - others));
  }

 protected:
  bool eventFilter(QObject*, QEvent* event) override {
    if (event->type() == QEvent::Resize) apply();
    return false;
  }

 private:
  QTableView* view_;
  int column_;
  int minWidth_;
};

void sizeColumns(QTableView* view, int nameColumn, int nameWidth) {
  view->resizeColumnsToContents();
  // Found by name: without Q_OBJECT a typed findChild would take any child.
  auto* fill = static_cast<NameColumnFill*>(view->findChild<QObject*>(QString::fromLatin1(NameColumnFill::kName),
                                                                      Qt::FindDirectChildrenOnly));
  if (!fill) fill = new NameColumnFill(view, nameColumn, nameWidth);
  fill->apply();
}

}  // namespace

OpsPanel::OpsPanel(TraceSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      model_(new OpTableModel(this)),
      job_(this, [this](std::shared_ptr<const analysis::OpTable> table) {
        model_->setTable(std::move(table), groupByShapes_->isChecked());
        table_->view()->setColumnHidden(OpTableModel::Shapes, !groupByShapes_->isChecked());
      }) {
  table_ = new TablePanel(model_, QStringLiteral("opsTable"), OpTableModel::Name, this);
  groupByShapes_ = new QCheckBox(tr("Group by input shapes"), this);
  groupByShapes_->setObjectName(QStringLiteral("groupByShapes"));
  table_->toolbar()->insertWidget(1, groupByShapes_);
  bareLayout(this)->addWidget(table_);
  connect(session_, &TraceSession::traceChanged, this, &OpsPanel::onTraceChanged);
  connect(groupByShapes_, &QCheckBox::toggled, this, &OpsPanel::rebuild);
  connect(session_, &TraceSession::rangeChanged, this, &OpsPanel::rebuild);
  connect(table_, &TablePanel::rowActivated, this, &OpsPanel::onActivated);
  onTraceChanged();
}

void OpsPanel::onTraceChanged() {
  job_.drop();
  const QSignalBlocker block(groupByShapes_);
  groupByShapes_->setChecked(false);
  model_->setTable(session_->hasTrace() ? session_->loaded().ops() : nullptr, false);
  table_->view()->setColumnHidden(OpTableModel::Shapes, true);
  sizeColumns(table_->view(), OpTableModel::Name, 320);
}

// The held table for the whole trace by name; grouped by shapes or over the
// selected range (ops that start inside it) the table walks every op again,
// off the GUI thread for big traces.
void OpsPanel::rebuild() {
  if (!session_->hasTrace()) return;
  analysis::OpTableOptions options;
  options.groupByShapes = groupByShapes_->isChecked();
  options.range = session_->range();
  if (!options.groupByShapes && !options.range) {
    job_.drop();
    model_->setTable(session_->loaded().ops(), false);
    table_->view()->setColumnHidden(OpTableModel::Shapes, true);
    return;
  }
  const std::shared_ptr<const Trace> trace = session_->loaded().trace;
  job_.start([trace, options] { return std::make_shared<const analysis::OpTable>(analysis::buildOpTable(*trace, options)); });
}

void OpsPanel::waitForTable() {
  job_.waitForLatest();
  QCoreApplication::processEvents();
}

void OpsPanel::onActivated(int row) {
  const analysis::OpRow* r = model_->opRow(row);
  if (!r || !session_->hasTrace()) return;
  const bool gpu = r->device == analysis::OpDevice::Gpu;
  const std::string* shapes = model_->groupedByShapes() ? &r->inputShapes : nullptr;
  session_->focusOccurrences(occurrences(session_->trace(), r->name, gpu, shapes),
                             tr("operator %1").arg(QString::fromStdString(r->name)));
}

KernelsPanel::KernelsPanel(TraceSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      model_(new KernelTableModel(this)),
      job_(this, [this](std::shared_ptr<const analysis::KernelTable> table) { model_->setTable(std::move(table)); }) {
  table_ = new TablePanel(model_, QStringLiteral("kernelTable"), KernelTableModel::Name, this);
  bareLayout(this)->addWidget(table_);
  connect(session_, &TraceSession::traceChanged, this, [this] {
    job_.drop();
    model_->setTable(session_->hasTrace() ? session_->loaded().kernels() : nullptr);
    sizeColumns(table_->view(), KernelTableModel::Name, 420);
  });
  connect(session_, &TraceSession::rangeChanged, this, &KernelsPanel::onRangeChanged);
  connect(table_, &TablePanel::rowActivated, this, &KernelsPanel::onActivated);
  model_->setTable(session_->hasTrace() ? session_->loaded().kernels() : nullptr);
}

// The kernels that started inside the selected range, worked out off the
// GUI thread (the whole trace's table is the held one).
void KernelsPanel::onRangeChanged() {
  if (!session_->hasTrace()) return;
  const auto range = session_->range();
  if (!range) {
    job_.drop();
    model_->setTable(session_->loaded().kernels());
    return;
  }
  const std::shared_ptr<const Trace> trace = session_->loaded().trace;
  job_.start(
      [trace, r = *range] { return std::make_shared<const analysis::KernelTable>(analysis::buildKernelTable(*trace, r)); });
}

void KernelsPanel::waitForTable() {
  job_.waitForLatest();
  QCoreApplication::processEvents();
}

void KernelsPanel::onActivated(int row) {
  const analysis::KernelRow* r = model_->kernelRow(row);
  if (!r || !session_->hasTrace()) return;
  session_->focusOccurrences(occurrences(session_->trace(), r->name, true, nullptr),
                             tr("kernel %1").arg(QString::fromStdString(r->name)));
}

GapsPanel::GapsPanel(TraceSession* session, QWidget* parent)
    : QWidget(parent), session_(session), model_(new GapListModel(session, this)) {
  table_ = new TablePanel(model_, QStringLiteral("gapTable"), -1, this);
  table_->filter()->setPlaceholderText(tr("Filter by cause, call or op…"));
  rangeLabel_ = new QLabel(this);
  clearRange_ = new QPushButton(tr("Show all"), this);
  clearRange_->setObjectName(QStringLiteral("gapRangeClear"));
  table_->toolbar()->insertWidget(1, rangeLabel_);
  table_->toolbar()->insertWidget(2, clearRange_);
  rangeLabel_->hide();
  clearRange_->hide();
  streamGaps_ = new QCheckBox(tr("Stream gaps"), this);
  streamGaps_->setObjectName(QStringLiteral("gapStreams"));
  streamGaps_->setToolTip(tr("Also list each stream's gaps, ranked by the time the whole GPU sat idle during "
                             "them (none while another stream kept it busy)"));
  table_->toolbar()->insertWidget(1, streamGaps_);
  bareLayout(this)->addWidget(table_);
  connect(clearRange_, &QPushButton::clicked, this, [this] { setDurationRange(std::nullopt); });
  connect(streamGaps_, &QCheckBox::toggled, this, [this](bool on) {
    model_->setStreamGaps(on);
    table_->view()->setColumnHidden(GapListModel::DeviceIdle, !on);
  });
  table_->view()->setColumnHidden(GapListModel::DeviceIdle, true);
  // "Why" is a sentence: it takes the room the other columns leave (at 1920 px
  // it was cut mid-sentence beside 600 px of nothing), 480 px at least.
  table_->view()->horizontalHeader()->setStretchLastSection(true);
  const auto focus = [this](int row) {
    const std::uint32_t gap = model_->gapIndex(row);
    if (gap != kNoIndex && !(session_->selection() == Selection{Selection::Kind::Gap, gap})) session_->focusGap(gap);
  };
  connect(table_, &TablePanel::rowActivated, this, focus);
  connect(table_, &TablePanel::currentRowChanged, this, focus);
  connect(session_, &TraceSession::selectionChanged, this, &GapsPanel::onSelectionChanged);
  connect(session_, &TraceSession::traceChanged, this, [this] {
    table_->view()->resizeColumnsToContents();
    table_->view()->setColumnWidth(GapListModel::Why, 480);
  });
}

void GapsPanel::setDurationRange(std::optional<std::pair<TimeNs, TimeNs>> range) {
  model_->setDurationRange(range);
  rangeLabel_->setVisible(range.has_value());
  clearRange_->setVisible(range.has_value());
  if (range) {
    rangeLabel_->setText(tr("idle %1 to %2").arg(durationText(range->first), durationText(range->second)));
  }
}

void GapsPanel::onSelectionChanged() {
  const Selection sel = session_->selection();
  if (sel.kind != Selection::Kind::Gap) return;
  const int row = model_->rowOfGap(sel.index);
  if (row >= 0) table_->selectSourceRow(row);
}

}  // namespace gapscope::app
