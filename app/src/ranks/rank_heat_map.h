// The Ranks window's heat map: one row per rank, one column per step, each
// cell coloured by the chosen metric (RankMetric) on the grid's min..max;
// straggling cells outlined, straggler ranks' labels bold. Hovering a cell
// shows its figures; clicking it says which rank and step to open.
// Cells shrink to fit; below HeatMapGeometry::kMinCell pixels the map
// scrolls (its own scroll bars, so the labels stay put).
#pragma once

#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

#include "ranks/heat_map_geometry.h"
#include "ranks/rank_grid.h"

class QScrollBar;

namespace gapscope::app {

class RankHeatMap : public QWidget {
  Q_OBJECT

 public:
  using Cell = std::pair<int, int>;  // (row, column)

  explicit RankHeatMap(QWidget* parent = nullptr);

  void setGrid(RankGrid grid);
  const RankGrid& grid() const { return grid_; }
  void setMetric(RankMetric metric);
  RankMetric currentMetric() const { return metric_; }
  // Shown instead of the map while there is no grid ("Reading ranks…").
  void setPlaceholder(const QString& text);

  // The smallest and largest value of the metric: the ends of the scale.
  std::pair<double, double> scale() const { return scale_; }
  QColor colourOf(double value) const;
  std::optional<Cell> cellAt(const QPoint& pos) const;
  // Widget coordinates; outside the visible cells when scrolled away.
  QRect cellRect(int row, int column) const;
  void scrollToCell(int row, int column);
  // Brings the cell into view and keeps it there as the map is laid out
  // again (the window fitting its height), until the user scrolls; a
  // column of -1 scrolls only to the row.
  void showCell(int row, int column);
  // The first and last row (column) at least partly in view.
  std::pair<int, int> visibleRows() const;
  std::pair<int, int> visibleColumns() const;
  // The cell's figures, the chosen metric's in bold (rich text).
  QString toolTipFor(int row, int column) const;
  const HeatMapGeometry& layout() const { return geometry_; }

  // The height that shows every rank at the largest cell height.
  int preferredHeight() const;
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 signals:
  void cellActivated(int row, int column);

 protected:
  bool event(QEvent* event) override;
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  void relayout();
  HeatMapFont fontFigures() const;
  void paintCells(QPainter& p) const;
  void paintOutlines(QPainter& p) const;
  void paintLabels(QPainter& p) const;
  void paintColumnLabels(QPainter& p) const;
  bool isStraggler(int row) const;

  RankGrid grid_;
  RankMetric metric_ = RankMetric::OwnTime;
  std::pair<double, double> scale_{0, 0};
  HeatMapGeometry geometry_;
  QScrollBar* hbar_;
  QScrollBar* vbar_;
  QString placeholder_;
  std::optional<Cell> hover_;
  std::optional<Cell> pressed_;
  std::vector<Cell> straggling_;  // the outlined cells
  std::optional<Cell> shown_;     // showCell's, until the user scrolls
  bool consecutiveRanks_ = true;  // label round numbers (labelledAt)
  bool consecutiveSteps_ = true;
};

}  // namespace gapscope::app
