// The status bar's progress bar and Cancel button of a window that reads
// rank sets (the Ranks window, two runs compared), hidden until a read starts.
#pragma once

#include <QString>

class QProgressBar;
class QPushButton;
class QStatusBar;

namespace gapscope::app {

struct LoadProgress {
  QProgressBar* bar = nullptr;
  QPushButton* cancel = nullptr;
};

// Object names: NAMEProgress and NAMECancel.
LoadProgress addLoadProgress(QStatusBar* status, const QString& name);

}  // namespace gapscope::app
