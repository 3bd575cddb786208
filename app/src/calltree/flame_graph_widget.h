// The flame graph (roots at the bottom) or icicle (roots at the top) of a
// call tree: frame widths from the chosen metric, colours from the
// timeline's name palette, so a frame has the colour of its slices. Hover
// for the figures, click to pick a frame, double-click to zoom to it;
// frames matching the search stay coloured, the others grey.
#pragma once

#include <QString>
#include <QWidget>

#include <memory>

#include "calltree/flame_geometry.h"
#include "timeline/timeline_palette.h"

namespace gapscope::timeline {
class TimelineLayout;
}

namespace gapscope::app {

// What the flame graph shows: a tree and the trace its names live in.
struct FlameSource {
  std::shared_ptr<const Trace> trace;
  std::shared_ptr<const timeline::TimelineLayout> layout;  // for the colours
  std::shared_ptr<const calltree::CallTree> tree;
};

class FlameGraphWidget : public QWidget {
  Q_OBJECT

 public:
  explicit FlameGraphWidget(QWidget* parent = nullptr);

  void setSource(FlameSource source);
  void setOptions(const FlameOptions& options);
  const FlameOptions& options() const { return options_; }
  void setIcicle(bool icicle);
  bool icicle() const { return icicle_; }
  void setSearch(const QString& text);
  // The metric's share of the shown total held by frames matching the
  // search (outermost matches only, so nesting is not counted twice).
  double searchShare() const { return searchShare_; }
  void setSelectedNode(std::uint32_t node);
  std::uint32_t selectedNode() const { return selected_; }
  const FlameLayout& layoutNow() const { return layout_; }
  // The frame under a point of the widget; nullptr when none.
  const FlameFrame* frameAt(QPointF pos) const;
  QRectF frameRect(const FlameFrame& frame) const;
  QString frameName(const FlameFrame& frame) const;
  QString frameTooltip(const FlameFrame& frame) const;

  QSize sizeHint() const override { return {480, 300}; }

 signals:
  void framePicked(quint32 node, quint32 thread);  // a click (node kNoIndex: a thread frame)
  void zoomRequested(quint32 node);                // a double-click (kNoIndex: zoom out)

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  bool event(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  void relayout();
  void updateSearchShare();
  bool matches(const FlameFrame& frame) const;
  QColor fillOf(const FlameFrame& frame) const;
  double rowHeight() const;

  FlameSource source_;
  FlameOptions options_;
  FlameLayout layout_;
  TimelinePalette palette_;
  bool icicle_ = true;
  QString search_;
  double searchShare_ = 0;
  std::uint32_t selected_ = kNoIndex;
};

}  // namespace gapscope::app
