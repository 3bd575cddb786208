#include "compare/compare_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "gapscope/timeline/slice_queries.h"
#include "models/report_table_model.h"
#include "models/table_format.h"
#include "panels/step_times_chart.h"
#include "panels/table_panel.h"
#include "trace_session.h"

namespace gapscope::app {

namespace {

QTableView* smallTable(ReportTableModel* model, const QString& name, QWidget* parent) {
  auto* view = new QTableView(parent);
  view->setObjectName(name);
  view->setModel(model);
  view->verticalHeader()->hide();
  view->setSelectionMode(QAbstractItemView::NoSelection);
  view->setWordWrap(false);
  view->setTextElideMode(Qt::ElideMiddle);
  view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
  return view;
}

// Each run's step times after its warm-up, by their step numbers
// (ProfilerStep#N's N; a repeated annotation's 1, 2, ...), nothing ringed.
std::array<StepSeries, 2> traceStepSeries(const compare::Comparison& c) {
  std::array<StepSeries, 2> runs;
  for (std::size_t run = 0; run < 2; ++run) {
    const compare::RunFigures& f = c.runs[run];
    for (std::size_t k = 0; k < f.stepTimes.size(); ++k) {
      runs[run].steps << static_cast<double>(f.stepNumbers[k]);
      runs[run].ms << static_cast<double>(f.stepTimes[k]) / 1e6;
    }
  }
  return runs;
}

// The chart's key and the test of the steps it draws; with several
// recordings a side, first the test the verdict tells (of the recordings).
QString spreadText(const compare::Comparison& c, bool severalRecordings) {
  if (c.runs[0].file.empty()) return {};
  const auto html = [](const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); };
  if (!severalRecordings)
    return StepTimesChart::runKey() + QStringLiteral("&nbsp;&nbsp;&nbsp;") + html(compare::spreadSentence(c.stepSpread));
  return QObject::tr("%1 (each recording's median step)<br/>").arg(html(compare::spreadSentence(c.runToRun))) +
         StepTimesChart::runKey() + QStringLiteral("&nbsp;&nbsp;&nbsp;") +
         QObject::tr("The middle recordings' steps: %1").arg(html(compare::spreadClause(c.stepSpread, false)));
}

// The one name, where the run has it.
std::vector<std::string> nameIf(bool present, const std::string& name) {
  return present ? std::vector<std::string>{name} : std::vector<std::string>{};
}

}  // namespace

ComparePanel::ComparePanel(std::array<TraceSession*, 2> sessions, QWidget* parent)
    : QWidget(parent), sessions_(sessions), tabs_(new QTabWidget(this)) {
  setObjectName(QStringLiteral("comparePanel"));
  tabs_->setObjectName(QStringLiteral("compareTabs"));
  tabs_->addTab(perStepTab(), tr("Per step"));
  tabs_->addTab(stepTimesTab(), tr("Step times"));
  TablePanel* groups = addTablePanel("kernel_groups", tr("Kernel groups"), 2);
  TablePanel* kernels = addTablePanel("kernels", tr("Kernels"), 0);
  TablePanel* ops = addTablePanel("ops", tr("Operators"), 0);
  // Shown only while a side has several recordings.
  addTablePanel("recordings", tr("Recordings"), 1);
  tabs_->setTabVisible(tabs_->count() - 1, false);
  // A click on a row shows its slices, as do Enter and a double click.
  for (auto signal : {&TablePanel::rowActivated, &TablePanel::currentRowChanged}) {
    connect(groups, signal, this, &ComparePanel::activateGroup);
    connect(kernels, signal, this, &ComparePanel::activateKernel);
    connect(ops, signal, this, &ComparePanel::activateOp);
  }
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(tabs_);
}

QWidget* ComparePanel::perStepTab() {
  auto* tab = new QWidget(this);
  auto* layout = new QVBoxLayout(tab);
  layout->setContentsMargins(4, 4, 4, 4);
  const std::array<std::pair<const char*, QString>, 2> tables{
      std::pair{"runs", QStringLiteral("compareRuns")}, std::pair{"idle_per_step", QStringLiteral("compareIdle")}};
  for (std::size_t i = 0; i < tables.size(); ++i) {
    auto* model = new ReportTableModel(this);
    models_.emplace_back(tables[i].first, model);
    smallTables_[i] = smallTable(model, tables[i].second, tab);
    layout->addWidget(smallTables_[i], i == 0 ? 2 : 3);
  }
  return tab;
}

QWidget* ComparePanel::stepTimesTab() {
  auto* tab = new QWidget(this);
  auto* layout = new QVBoxLayout(tab);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->setSpacing(2);
  spreadLabel_ = new QLabel(tab);
  spreadLabel_->setObjectName(QStringLiteral("compareSpread"));
  spreadLabel_->setWordWrap(true);
  spreadLabel_->setTextFormat(Qt::RichText);
  spreadLabel_->setToolTip(tr("A Mann-Whitney U test of A's step times against B's: whether the two runs' steps are "
                              "told apart at all. It cannot tell a change from the difference between two "
                              "recordings of the same program (docs/compare.md)"));
  layout->addWidget(spreadLabel_);
  stepChart_ = new StepTimesChart(QString(), StepTimesChart::Frame::Compact, tab);
  stepChart_->setToolTip(tr("Each run's step time in each step after its warm-up, by step number; click a step to "
                            "align the timelines there"));
  connect(stepChart_, &StepTimesChart::stepClicked, this, &ComparePanel::stepPicked);
  // The dock is short at 1024x700: the chart takes what the tab has.
  stepChart_->plot()->setMinimumHeight(60);
  layout->addWidget(stepChart_, 1);
  return tab;
}

TablePanel* ComparePanel::addTablePanel(const std::string& id, const QString& title, int filterColumn) {
  auto* model = new ReportTableModel(this);
  models_.emplace_back(id, model);
  auto* panel = new TablePanel(model, QStringLiteral("compare_%1").arg(QString::fromStdString(id)), filterColumn, this);
  panels_.emplace_back(id, panel);
  tabs_->addTab(panel, title);
  return panel;
}

ReportTableModel* ComparePanel::model(const std::string& id) const {
  for (const auto& [name, m] : models_)
    if (name == id) return m;
  return nullptr;
}

TablePanel* ComparePanel::panel(const std::string& id) const {
  for (const auto& [name, p] : panels_)
    if (name == id) return p;
  return nullptr;
}

void ComparePanel::setReport(const report::ComparisonReport& report) {
  report_ = report;
  for (const auto& [id, m] : models_) {
    const report::Table* t = report_.table(id);
    m->setTable(t ? *t : report::Table{});
  }
  for (QTableView* v : smallTables_) v->resizeColumnsToContents();
  const bool severalRecordings = report_.table("recordings") != nullptr;
  tabs_->setTabVisible(tabs_->indexOf(panel("recordings")), severalRecordings);
  stepChart_->setSeries(traceStepSeries(report_.comparison));
  spreadLabel_->setText(spreadText(report_.comparison, severalRecordings));
  // Names and kernel lists run to hundreds of characters: no column wider
  // than this (the whole text is the cell's tooltip).
  constexpr int kMaxColumnWidth = 380;
  for (const auto& [id, p] : panels_) {
    p->view()->resizeColumnsToContents();
    for (int c = 0; c < p->view()->model()->columnCount(); ++c)
      p->view()->setColumnWidth(c, std::min(p->view()->columnWidth(c), kMaxColumnWidth));
  }
}

void ComparePanel::clear() { setReport(report::ComparisonReport{}); }

namespace {

// Where a run's compared steps begin (its first step but a warm-up; the
// window's axes count from about there): a row's jump prefers what lies
// after it to a longer occurrence in the program's start-up.
TimeNs comparedFrom(const analysis::GapAnalysis& gaps) {
  for (const analysis::StepStats& step : gaps.steps) {
    if (!step.warmUp) return step.cpuStart;
  }
  return -kMaxAbsTimeNs;
}

}  // namespace

void ComparePanel::highlight(int side, const std::vector<std::string>& names, bool gpu, const std::string* shapes,
                             const QString& origin, bool focus) {
  TraceSession* s = sessions_[static_cast<std::size_t>(side)];
  if (!s->hasTrace()) return;
  std::vector<std::uint32_t> slices;
  const std::string_view shapesView = shapes ? std::string_view(*shapes) : std::string_view();
  for (const std::string& name : names) {
    auto found = timeline::findSlicesNamed(s->trace(), name, shapes ? &shapesView : nullptr);
    std::erase_if(found, [&](std::uint32_t i) { return isGpuKind(s->trace().slices[i].kind) != gpu; });
    slices.insert(slices.end(), found.begin(), found.end());
  }
  std::sort(slices.begin(), slices.end(),
            [&](std::uint32_t a, std::uint32_t b) { return s->trace().slices[a].start < s->trace().slices[b].start; });
  if (focus) {
    s->focusOccurrences(std::move(slices), origin, comparedFrom(s->gaps()));
  } else {
    s->setHighlights(std::move(slices), origin);
  }
}

// Run A's view leads (the two timelines are linked): it jumps to the
// longest occurrence where A has one, else B's does.
void ComparePanel::highlightBoth(const std::array<std::vector<std::string>, 2>& names, bool gpu,
                                 const std::string* shapes, const QString& origin) {
  const int lead = names[0].empty() ? 1 : 0;
  highlight(1 - lead, names[static_cast<std::size_t>(1 - lead)], gpu, shapes, origin, false);
  highlight(lead, names[static_cast<std::size_t>(lead)], gpu, shapes, origin, true);
}

void ComparePanel::activateKernel(int row) {
  const ReportTableModel* m = model("kernels");
  const std::string name = m->text(row, "name");
  if (name.empty()) return;
  const std::array<std::vector<std::string>, 2> names{nameIf(m->integer(row, "count_a") > 0, name),
                                                      nameIf(m->integer(row, "count_b") > 0, name)};
  highlightBoth(names, true, nullptr, tr("kernel %1").arg(utf8(name)));
}

void ComparePanel::activateGroup(int row) {
  const std::int64_t group = model("kernel_groups")->integer(row, "group");
  const auto& groups = report_.comparison.groups;
  if (group < 0 || static_cast<std::size_t>(group) >= groups.size()) return;
  const compare::KernelGroup& g = groups[static_cast<std::size_t>(group)];
  highlightBoth({g.kernelsA, g.kernelsB}, true, nullptr, tr("kernels matched by %1").arg(utf8(g.key)));
}

void ComparePanel::activateOp(int row) {
  const ReportTableModel* m = model("ops");
  const std::string name = m->text(row, "name");
  if (name.empty()) return;
  const std::string shapes = m->text(row, "input_shapes");
  const bool byShapes = report_.comparison.opsByShapes;
  const std::array<std::vector<std::string>, 2> names{nameIf(m->integer(row, "calls_a") > 0, name),
                                                      nameIf(m->integer(row, "calls_b") > 0, name)};
  highlightBoth(names, false, byShapes ? &shapes : nullptr, tr("operator %1").arg(utf8(name)));
}

}  // namespace gapscope::app
