#include "ranks/heat_colours.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <QPalette>

namespace gapscope::app {

namespace {

// Viridis at nine evenly spaced points (matplotlib's table).
constexpr std::array<QRgb, 9> kViridis{0x440154, 0x472D7B, 0x3B528B, 0x2C728E, 0x21918C,
                                       0x28AE80, 0x5EC962, 0xADDC30, 0xFDE725};

int mixChannel(int a, int b, double f) { return static_cast<int>(std::lround(a + (b - a) * f)); }

}  // namespace

QColor warmUpColour(const QPalette& palette) {
  // About a third of the way from the background to the text: a plain grey in either theme.
  const QColor base = palette.color(QPalette::Base), text = palette.color(QPalette::Text);
  constexpr double kTowardText = 0.35;
  return QColor(mixChannel(base.red(), text.red(), kTowardText), mixChannel(base.green(), text.green(), kTowardText),
                mixChannel(base.blue(), text.blue(), kTowardText));
}

QColor heatColour(double t) {
  if (!std::isfinite(t)) t = 0;
  const double x = std::clamp(t, 0.0, 1.0) * static_cast<double>(kViridis.size() - 1);
  const auto i = std::min(static_cast<std::size_t>(x), kViridis.size() - 2);
  const double f = x - static_cast<double>(i);
  const QColor a = QColor::fromRgb(kViridis[i]);
  const QColor b = QColor::fromRgb(kViridis[i + 1]);
  return QColor(mixChannel(a.red(), b.red(), f), mixChannel(a.green(), b.green(), f),
                mixChannel(a.blue(), b.blue(), f));
}

}  // namespace gapscope::app
