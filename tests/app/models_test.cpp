// The table models over the analyses of a real trace, each checked by
// QAbstractItemModelTester, plus what the tables promise: numeric sorting,
// grouping by shapes, a gap list that follows the minimum gap.
#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

#include "app_test_support.h"
#include "gapscope/io/chrome_reader.h"
#include "models/gap_list_model.h"
#include "models/kernel_table_model.h"
#include "models/op_table_model.h"
#include "models/table_format.h"
#include "panels/analysis_panels.h"
#include "panels/table_panel.h"
#include "trace_session.h"

using namespace gapscope;
using namespace gapscope::app;
using gapscope::app::testing::ensureApp;
using gapscope::app::testing::testData;

namespace {

LoadedTrace loadReal(const char* relative) {
  auto result = io::loadChromeTrace(testData(relative).toStdString());
  EXPECT_TRUE(result.ok()) << result.error;
  return analyseTrace(std::move(*result.trace), testData(relative));
}

LoadedTrace& splitStack() {
  static LoadedTrace t = loadReal("h200/split_stack_eager.json");
  return t;
}

// Column values of a sorted proxy as numbers (kSortRole).
std::vector<double> sortedColumn(QAbstractItemModel* model, int column, Qt::SortOrder order) {
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(model);
  proxy.setSortRole(kSortRole);
  proxy.sort(column, order);
  std::vector<double> out;
  for (int r = 0; r < proxy.rowCount(); ++r) out.push_back(proxy.index(r, column).data(kSortRole).toDouble());
  return out;
}

}  // namespace

TEST(OpTableModel, PassesTheModelTesterAndSortsByRawNumbers) {
  ensureApp();
  OpTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTable(splitStack().ops(), false);
  ASSERT_EQ(model.rowCount(), static_cast<int>(splitStack().ops()->rows.size()));
  ASSERT_GT(model.rowCount(), 5);
  EXPECT_EQ(model.columnCount(), OpTableModel::ColumnCount);
  const auto& first = splitStack().ops()->rows[0];
  EXPECT_EQ(model.index(0, OpTableModel::Name).data().toString().toStdString(), first.name);
  EXPECT_EQ(model.index(0, OpTableModel::Calls).data(kSortRole).toLongLong(), first.calls);
  EXPECT_EQ(model.index(0, OpTableModel::DeviceTotal).data(kSortRole).toLongLong(), first.deviceTotal);
  // "9.5 µs" < "10.2 µs" as numbers, not as text.
  const auto self = sortedColumn(&model, OpTableModel::SelfCpu, Qt::DescendingOrder);
  EXPECT_TRUE(std::is_sorted(self.rbegin(), self.rend()));
  EXPECT_EQ(model.headerData(OpTableModel::SelfCpuPct, Qt::Horizontal).toString(), QStringLiteral("Self CPU %"));
  model.setTable(nullptr, false);
  EXPECT_EQ(model.rowCount(), 0);
}

// split_stack_eager's GPU annotation spans 2.775 ms of a 245 us GPU total:
// PyTorch prints 1132.42 % (tests/data/h200/split_stack_eager.table.txt);
// the app shows a dash, keeps the number for sorting and says why.
TEST(OpTableModel, AGpuAnnotationShowsNoShareOfTheGpuTime) {
  ensureApp();
  OpTableModel model;
  model.setTable(splitStack().ops(), false);
  int annotation = -1;
  const auto& rows = splitStack().ops()->rows;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].name == "split_stack_eager" && rows[i].device == analysis::OpDevice::Gpu) annotation = static_cast<int>(i);
  ASSERT_GE(annotation, 0);
  const QModelIndex pct = model.index(annotation, OpTableModel::SelfDevicePct);
  EXPECT_EQ(pct.data().toString(), QStringLiteral("—"));
  EXPECT_NEAR(pct.data(kSortRole).toDouble(), 1132.42, 0.01);
  EXPECT_TRUE(pct.data(Qt::ToolTipRole).toString().contains(QStringLiteral("1132.42")))
      << pct.data(Qt::ToolTipRole).toString().toStdString();
  EXPECT_EQ(model.index(annotation, OpTableModel::DeviceTotalPct).data().toString(), QStringLiteral("—"));
  // Every other percentage shown stays within 0..100.
  for (int r = 0; r < model.rowCount(); ++r) {
    for (int c : {OpTableModel::SelfCpuPct, OpTableModel::CpuTotalPct, OpTableModel::SelfDevicePct,
                  OpTableModel::DeviceTotalPct}) {
      const QString text = model.index(r, c).data().toString();
      if (text == QStringLiteral("—")) continue;
      const double shown = model.index(r, c).data(kSortRole).toDouble();
      EXPECT_GE(shown, 0.0) << r << "," << c;
      EXPECT_LE(shown, 100.0 + 1e-9) << r << "," << c << " " << text.toStdString();
    }
  }
}

TEST(OpTableModel, GroupingByShapesSplitsRowsAndFillsTheShapesColumn) {
  ensureApp();
  TraceSession session;
  session.setTrace(splitStack());
  OpsPanel panel(&session);
  QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  const int plain = panel.model()->rowCount();
  EXPECT_TRUE(panel.table()->view()->isColumnHidden(OpTableModel::Shapes));
  panel.groupByShapes()->setChecked(true);
  panel.waitForTable();
  EXPECT_TRUE(panel.model()->groupedByShapes());
  EXPECT_GE(panel.model()->rowCount(), plain);
  EXPECT_FALSE(panel.table()->view()->isColumnHidden(OpTableModel::Shapes));
  bool anyShapes = false;
  for (int r = 0; r < panel.model()->rowCount(); ++r) {
    anyShapes |= !panel.model()->index(r, OpTableModel::Shapes).data().toString().isEmpty();
  }
  EXPECT_TRUE(anyShapes);
}

TEST(OpTableModel, ActivatingARowHighlightsItsOccurrencesAndSelectsTheLongest) {
  ensureApp();
  TraceSession session;
  session.setTrace(splitStack());
  OpsPanel panel(&session);
  int row = -1;
  for (int r = 0; r < panel.model()->rowCount(); ++r) {
    if (panel.model()->opRow(r)->name == "aten::layer_norm") row = r;
  }
  ASSERT_GE(row, 0);
  emit panel.table()->rowActivated(row);
  const auto& hl = session.highlights();
  EXPECT_EQ(static_cast<std::int64_t>(hl.size()), panel.model()->opRow(row)->calls);
  const Trace& t = session.trace();
  const std::uint32_t sel = session.selectedSlice();
  ASSERT_NE(sel, kNoIndex);
  EXPECT_EQ(t.str(t.slices[sel].name), "aten::layer_norm");
  for (std::uint32_t s : hl) EXPECT_LE(t.slices[s].dur, t.slices[sel].dur);
}

TEST(KernelTableModel, PassesTheModelTesterAndShowsLaunchConfiguration) {
  ensureApp();
  KernelTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTable(splitStack().kernels());
  ASSERT_EQ(model.rowCount(), static_cast<int>(splitStack().kernels()->rows.size()));
  ASSERT_GT(model.rowCount(), 0);
  const auto& k = splitStack().kernels()->rows[0];
  EXPECT_EQ(model.index(0, KernelTableModel::Total).data(kSortRole).toLongLong(), k.total);
  EXPECT_EQ(model.index(0, KernelTableModel::Grid).data().toString(),
            QStringLiteral("[%1, %2, %3]").arg(k.grid[0]).arg(k.grid[1]).arg(k.grid[2]));
  const auto totals = sortedColumn(&model, KernelTableModel::Total, Qt::AscendingOrder);
  EXPECT_TRUE(std::is_sorted(totals.begin(), totals.end()));
}

TEST(GapListModel, PassesTheModelTesterAndFollowsTheMinimumGap) {
  ensureApp();
  TraceSession session;
  GapListModel model(&session);
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  session.setTrace(splitStack());
  const auto& gaps = session.gaps().gaps;
  ASSERT_GT(model.rowCount(), 0);
  // Device gaps only by default (the one-stream trace's stream gaps are
  // the same intervals, listed once), largest first.
  const auto listedAbove = [&](TimeNs min) {
    return static_cast<int>(
        std::count_if(gaps.begin(), gaps.end(), [&](const auto& g) { return g.stream < 0 && g.dur >= min; }));
  };
  EXPECT_EQ(model.rowCount(), listedAbove(session.minGapNs()));
  model.setStreamGaps(true);
  EXPECT_EQ(model.rowCount(), listedAbove(session.minGapNs()));
  session.setMinGapNs(20000);
  EXPECT_EQ(model.rowCount(), listedAbove(20000));
  for (int r = 0; r < model.rowCount(); ++r) {
    EXPECT_GE(model.index(r, GapListModel::Duration).data(kSortRole).toLongLong(), 20000);
    if (r > 0) {
      EXPECT_GE(model.index(r - 1, GapListModel::DeviceIdle).data(kSortRole).toLongLong(),
                model.index(r, GapListModel::DeviceIdle).data(kSortRole).toLongLong());
    }
  }
  model.setDurationRange(std::make_pair(TimeNs{20000}, TimeNs{50000}));
  for (int r = 0; r < model.rowCount(); ++r) EXPECT_LT(gaps[model.gapIndex(r)].dur, 50000);
  EXPECT_FALSE(model.index(0, GapListModel::Why).data().toString().isEmpty());
  EXPECT_EQ(model.rowOfGap(model.gapIndex(0)), 0);
  session.setTrace({});
  EXPECT_EQ(model.rowCount(), 0);
}
