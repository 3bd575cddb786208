#include "app_setup.h"

#include <QApplication>
#include <QIcon>
#include <QPalette>

#include "gapscope/version.h"

namespace gapscope::app {

void setupApplication(QApplication& app) {
  QApplication::setOrganizationName(QStringLiteral("gapscope"));
  QApplication::setApplicationName(QStringLiteral("gapscope"));
  QApplication::setApplicationDisplayName(QStringLiteral("gapscope"));
  QApplication::setApplicationVersion(QStringLiteral(GAPSCOPE_VERSION));
  // The id of packaging/io.github.gapscope.Gapscope.desktop: lets Wayland
  // compositors match windows to the desktop entry and its icon.
  QGuiApplication::setDesktopFileName(QStringLiteral("io.github.gapscope.Gapscope"));
  QIcon icon = QIcon::fromTheme(QStringLiteral("io.github.gapscope.Gapscope"));
  if (icon.isNull()) icon = QIcon(QStringLiteral(":/icons/io.github.gapscope.Gapscope.png"));
  app.setWindowIcon(icon);
}

bool paletteIsDark() {
  const QPalette p = QApplication::palette();
  return p.color(QPalette::Window).lightness() < p.color(QPalette::WindowText).lightness();
}

}  // namespace gapscope::app
