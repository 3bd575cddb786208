// The heat map's key, on one line under it: the colour scale from the
// smallest to the largest value of the chosen metric, what an outlined
// cell means, and the grey of a warm-up step where the map has one.
#pragma once

#include <QWidget>

namespace gapscope::app {

class HeatLegend : public QWidget {
  Q_OBJECT

 public:
  explicit HeatLegend(QWidget* parent = nullptr);
  // The texts at the two ends of the scale.
  void setRange(const QString& lowest, const QString& highest);
  QString lowest() const { return lowest_; }
  QString highest() const { return highest_; }
  // Whether the map has a warm-up step, whose grey the key then names.
  void setWarmUp(bool shown);
  bool warmUpShown() const { return warmUp_; }

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QString outlineText() const;
  QString warmUpText() const;

  QString lowest_;
  QString highest_;
  bool warmUp_ = false;
};

}  // namespace gapscope::app
