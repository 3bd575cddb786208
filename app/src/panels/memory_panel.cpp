#include "panels/memory_panel.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "gapscope/format/number.h"
#include "gapscope/report/report.h"
#include "models/report_table_model.h"
#include "models/table_format.h"
#include "panels/table_panel.h"
#include "trace_session.h"

namespace gapscope::app {
namespace {

QString bytesText(std::int64_t bytes) { return utf8(format::formatBytes(bytes)); }

std::vector<const memory::Allocation*> allocationsOf(const memory::MemoryAnalysis& m, std::int32_t device) {
  std::vector<const memory::Allocation*> rows;
  for (const memory::Allocation& a : m.allocations) {
    if (a.device == device) rows.push_back(&a);
  }
  return rows;
}

}  // namespace

MemoryPanel::MemoryPanel(TraceSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      byOp_(new ReportTableModel(this)),
      allocations_(new ReportTableModel(this)),
      live_(new ReportTableModel(this)),
      job_(this, [this](std::shared_ptr<const memory::MemoryAnalysis> memory) { setAnalysis(std::move(memory)); }) {
  setObjectName(QStringLiteral("memoryPanel"));
  device_ = new QComboBox(this);
  device_->setObjectName(QStringLiteral("memoryDevice"));
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("memorySummary"));
  summary_->setTextFormat(Qt::RichText);
  summary_->setWordWrap(true);
  auto* top = new QHBoxLayout;
  top->setContentsMargins(4, 2, 4, 0);
  top->addWidget(device_);
  top->addWidget(summary_, 1);

  auto* byOpTable = new TablePanel(byOp_, QStringLiteral("memoryByOp"), 0, this);
  auto* allocationsTable = new TablePanel(allocations_, QStringLiteral("memoryAllocations"), 5, this);
  allocationsTable->filter()->setPlaceholderText(tr("Filter by operator…"));
  liveTable_ = new TablePanel(live_, QStringLiteral("memoryLive"), 5, this);
  liveTable_->filter()->setPlaceholderText(tr("Filter by operator…"));
  liveLabel_ = new QLabel(this);
  liveLabel_->setObjectName(QStringLiteral("memoryLiveLabel"));
  liveTable_->toolbar()->insertWidget(0, liveLabel_);
  tabs_ = new QTabWidget(this);
  tabs_->setDocumentMode(true);
  tabs_->addTab(byOpTable, tr("By Operator"));
  tabs_->addTab(allocationsTable, tr("Allocations"));
  tabs_->addTab(liveTable_, tr("Live"));

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(top);
  layout->addWidget(tabs_, 1);

  connect(session_, &TraceSession::traceChanged, this, &MemoryPanel::onTraceChanged);
  connect(session_, &TraceSession::rangeChanged, this, &MemoryPanel::onRangeChanged);
  connect(session_, &TraceSession::memoryTimePicked, this, [this](qint32 device, qint64 ts) { showLiveAt(device, ts); });
  connect(device_, &QComboBox::currentIndexChanged, this, [this] {
    livePicked_ = false;
    showDevice();
  });
  connect(allocationsTable, &TablePanel::rowActivated, this,
          [this](int row) { selectAllocatingOp(allocationRows_, row); });
  connect(liveTable_, &TablePanel::rowActivated, this, [this](int row) { selectAllocatingOp(liveRows_, row); });
  onTraceChanged();
}

TimeNs MemoryPanel::origin() const { return session_->hasTrace() ? session_->layout().contentStart() : 0; }

void MemoryPanel::onTraceChanged() {
  job_.drop();
  livePicked_ = false;
  if (!session_->hasTrace()) {
    setAnalysis(nullptr);
    return;
  }
  const auto& analysis = session_->loaded().analysis;
  setAnalysis(std::shared_ptr<const memory::MemoryAnalysis>(analysis, &analysis->memory()));
}

void MemoryPanel::onRangeChanged() {
  if (!session_->hasTrace()) return;
  const std::optional<TimeRange> range = session_->range();
  if (!range) {
    onTraceChanged();
    return;
  }
  const std::shared_ptr<const Trace> trace = session_->loaded().trace;
  job_.start([trace, r = *range] {
    memory::MemoryOptions options;
    options.range = r;
    return std::make_shared<const memory::MemoryAnalysis>(memory::analyzeMemory(*trace, options));
  });
}

void MemoryPanel::waitForAnalysis() {
  job_.waitForLatest();
  QCoreApplication::processEvents();
}

void MemoryPanel::setAnalysis(std::shared_ptr<const memory::MemoryAnalysis> memory) {
  memory_ = std::move(memory);
  const std::int32_t keep = currentDevice();
  {
    const QSignalBlocker block(device_);
    device_->clear();
    if (memory_) {
      for (const memory::DeviceMemory& d : memory_->devices) {
        device_->addItem(utf8(memory::deviceLabel(d.device)), d.device);
      }
    }
    const int index = device_->findData(keep);
    // A GPU first: its memory is what runs out.
    device_->setCurrentIndex(index >= 0 ? index : device_->count() - 1);
  }
  device_->setEnabled(device_->count() > 1);
  showDevice();
}

std::int32_t MemoryPanel::currentDevice() const {
  return device_->currentIndex() >= 0 ? device_->currentData().toInt() : memory::kCpuDevice - 1;
}

const memory::DeviceMemory* MemoryPanel::deviceMemory() const {
  return memory_ ? memory_->device(currentDevice()) : nullptr;
}

void MemoryPanel::showDevice() {
  const memory::DeviceMemory* d = deviceMemory();
  if (!d) {
    const bool none = !memory_ || memory_->empty();
    summary_->setText(none ? tr("No memory events in this trace: record with <tt>profile_memory=True</tt> to see "
                                "allocations.")
                           : tr("No memory events in the selected range."));
    byOp_->setTable({});
    allocations_->setTable({});
    allocationRows_.clear();
    updateLive();
    return;
  }
  QString text = tr("<b>Peak allocated %1</b> at %2")
                     .arg(bytesText(d->peakAllocated), durationText(d->peakAllocatedTs - origin()));
  if (d->peakReserved) text += tr(", peak reserved %1").arg(bytesText(*d->peakReserved));
  text += tr(" · %1 events · %2 allocations (%3)").arg(d->events).arg(d->allocated.count).arg(bytesText(d->allocated.bytes));
  if (d->allAddressed()) {
    text += tr(" · never freed: %1 (%2)").arg(d->neverFreed.count).arg(bytesText(d->neverFreed.bytes));
  } else {
    // Without an address no free can be paired with its allocation: a count would read as "none".
    text += tr(" · never freed: unknown (%1 events without an address)").arg(d->withoutAddress);
  }
  if (session_->range()) text += tr(" · <i>selected range</i>");
  if (d->basis != memory::AllocatedBasis::Stated) {
    text += tr("<br><i>This trace states no totals: the curve is the net change since it began.</i>");
  }
  summary_->setText(text);
  byOp_->setTable(report::memoryByOpTable(*d));
  allocationRows_ = allocationsOf(*memory_, d->device);
  allocations_->setTable(report::allocationsTable(session_->trace(), allocationRows_, origin()));
  for (QTableView* view : findChildren<QTableView*>()) view->resizeColumnsToContents();
  if (!livePicked_) liveTs_ = d->peakAllocatedTs;
  updateLive();
}

void MemoryPanel::showLiveAt(std::int32_t device, TimeNs ts) {
  const int index = device_->findData(device);
  if (index >= 0 && index != device_->currentIndex()) {
    const QSignalBlocker block(device_);
    device_->setCurrentIndex(index);
    showDevice();
  }
  livePicked_ = true;
  liveTs_ = ts;
  updateLive();
  tabs_->setCurrentWidget(liveTable_);
  emit liveShown();
}

void MemoryPanel::updateLive() {
  const memory::DeviceMemory* d = deviceMemory();
  liveRows_ = d ? memory::liveAllocations(*memory_, d->device, liveTs_) : std::vector<const memory::Allocation*>{};
  std::int64_t bytes = 0;
  for (const memory::Allocation* a : liveRows_) bytes += a->bytes;
  live_->setTable(d ? report::allocationsTable(session_->trace(), liveRows_, origin()) : report::Table{});
  liveTable_->view()->resizeColumnsToContents();
  if (!d) {
    liveLabel_->clear();
    return;
  }
  liveLabel_->setText(liveText(*d, bytes));
}

QString MemoryPanel::liveText(const memory::DeviceMemory& d, std::int64_t listedBytes) const {
  const QString at = durationText(liveTs_ - origin()) + (livePicked_ ? QString() : tr(" (the peak)"));
  const std::int64_t held = d.allocatedAt(liveTs_);
  if (!d.allAddressed()) {
    return tr("Live at %1: %2 allocated; which allocations is unknown (%3 events without an address)")
        .arg(at, bytesText(held))
        .arg(d.withoutAddress);
  }
  QString text = tr("Live at %1: %2 allocations, %3").arg(at).arg(liveRows_.size()).arg(bytesText(listedBytes));
  // What the curve holds beyond the listed allocations was allocated before
  // the trace (or the range) began; a curve of net changes starts at zero.
  if (held > listedBytes) {
    const QString from = d.basis == memory::AllocatedBasis::Stated ? tr("from before the trace") : tr("unpaired");
    text += tr(" of %1 allocated (%2 %3)").arg(bytesText(held), bytesText(held - listedBytes), from);
  }
  return text;
}

void MemoryPanel::selectAllocatingOp(const std::vector<const memory::Allocation*>& rows, int row) {
  if (row < 0 || static_cast<std::size_t>(row) >= rows.size()) return;
  const std::uint32_t op = rows[static_cast<std::size_t>(row)]->allocOp;
  if (op == kNoIndex) return;
  session_->selectSlice(op);
  session_->revealSlice(op);
}

}  // namespace gapscope::app
