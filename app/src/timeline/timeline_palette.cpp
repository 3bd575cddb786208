#include "timeline/timeline_palette.h"

namespace gapscope::app {

namespace {

// Twenty hues that stay apart from each other (after Tableau 20); the dark
// theme darkens them so light text stays readable.
constexpr std::array<QRgb, timeline::kNamePaletteSize> kNameHues{
    0x4E79A7, 0xA0CBE8, 0xF28E2B, 0xFFBE7D, 0x59A14F, 0x8CD17D, 0xB6992D, 0xF1CE63, 0x499894, 0x86BCB6,
    0xE15759, 0xFF9D9A, 0x79706E, 0xBAB0AC, 0xD37295, 0xFABFD2, 0xB07AA1, 0xD4A6C8, 0x9D7660, 0xD7B5A6,
};

}  // namespace

TimelinePalette TimelinePalette::forDark(bool dark) {
  TimelinePalette p;
  for (std::size_t i = 0; i < kNameHues.size(); ++i) {
    const QColor c = QColor::fromRgb(kNameHues[i]);
    p.slice[i] = dark ? c.darker(135) : c;
  }
  p.slice[timeline::kColourMemcpy] = dark ? QColor(0x2E, 0x9E, 0x6E) : QColor(0x3C, 0xB3, 0x71);
  p.slice[timeline::kColourMemset] = dark ? QColor(0x6E, 0x8F, 0x2E) : QColor(0x9A, 0xB9, 0x3A);
  p.slice[timeline::kColourLaunch] = dark ? QColor(0x8E, 0x5C, 0xD9) : QColor(0x7B, 0x4F, 0xD6);

  using analysis::GapCause;
  p.gap[static_cast<int>(GapCause::LaunchOverhead)] = QColor(0xE5, 0x39, 0x35);
  p.gap[static_cast<int>(GapCause::Synchronization)] = QColor(0xFB, 0x8C, 0x00);
  p.gap[static_cast<int>(GapCause::Queued)] = QColor(0x1E, 0x88, 0xE5);
  p.gap[static_cast<int>(GapCause::Other)] = QColor(0x9E, 0x9E, 0x9E);

  if (dark) {
    p.background = QColor(0x1E, 0x1F, 0x22);
    p.laneAlternate = QColor(0x25, 0x26, 0x2A);
    p.header = QColor(0x2D, 0x30, 0x36);
    p.headerText = QColor(0xE8, 0xEA, 0xED);
    p.laneText = QColor(0xBD, 0xC1, 0xC6);
    p.separator = QColor(0x3C, 0x40, 0x43);
    p.axisBackground = QColor(0x26, 0x28, 0x2C);
    p.axisText = QColor(0xBD, 0xC1, 0xC6);
    p.tick = QColor(0x5F, 0x63, 0x68);
    p.selection = QColor(0xFF, 0xFF, 0xFF);
    p.highlight = QColor(0xFF, 0xD5, 0x4F);
    p.flow = QColor(0xFF, 0xFF, 0xFF);
    p.measure = QColor(0x8A, 0xB4, 0xF8);
    p.counter = QColor(0x4F, 0xC3, 0xF7);
    p.memoryAllocated = QColor(0xBA, 0x68, 0xC8);
    p.memoryReserved = QColor(0xCE, 0x93, 0xD8);
    p.memoryPeak = QColor(0xFF, 0x8A, 0x80);
  } else {
    p.background = QColor(0xFF, 0xFF, 0xFF);
    p.laneAlternate = QColor(0xF7, 0xF8, 0xFA);
    p.header = QColor(0xEC, 0xEF, 0xF3);
    p.headerText = QColor(0x20, 0x21, 0x24);
    p.laneText = QColor(0x3C, 0x40, 0x43);
    p.separator = QColor(0xDA, 0xDC, 0xE0);
    p.axisBackground = QColor(0xF5, 0xF6, 0xF8);
    p.axisText = QColor(0x3C, 0x40, 0x43);
    p.tick = QColor(0xBD, 0xC1, 0xC6);
    p.selection = QColor(0x11, 0x11, 0x11);
    p.highlight = QColor(0xF5, 0x7C, 0x00);
    p.flow = QColor(0x20, 0x21, 0x24);
    p.measure = QColor(0x1A, 0x73, 0xE8);
    p.counter = QColor(0x03, 0x9B, 0xE5);
    p.memoryAllocated = QColor(0x8E, 0x24, 0xAA);
    p.memoryReserved = QColor(0xAB, 0x47, 0xBC);
    p.memoryPeak = QColor(0xC6, 0x28, 0x28);
  }
  return p;
}

QColor TimelinePalette::textOn(const QColor& fill) {
  // Relative luminance with the sRGB weights, good enough to pick black or white.
  const double y = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
  return y > 0.55 ? QColor(0x20, 0x21, 0x24) : QColor(0xFF, 0xFF, 0xFF);
}

}  // namespace gapscope::app
