// Application-wide setup shared by main() and the widget tests: names used
// by QSettings, the desktop file id, the icon, the colour scheme.
#pragma once

class QApplication;

namespace gapscope::app {

void setupApplication(QApplication& app);

// True when the active palette is dark (window colour darker than its text).
bool paletteIsDark();

}  // namespace gapscope::app
