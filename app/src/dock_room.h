// Keeps a main window's centre (the timelines) in view on a small screen:
// its bottom docks take at most a share of the window's height and its side
// docks at most a share of its width. Checked after every resize of the
// window and when asked (a layout restored, perhaps saved on a bigger
// screen), once the layout has run; never while the user drags a dock's
// edge, so a dock made bigger by hand stays so until the next resize.
#pragma once

#include <QObject>

class QMainWindow;

namespace gapscope::app {

class DockRoom : public QObject {
 public:
  DockRoom(QMainWindow* window, double maxBottomShare, double maxSideShare);

  // Checks once the pending layout has run.
  void queueCheck();

 private:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void check();

  QMainWindow* window_;
  double maxBottomShare_;
  double maxSideShare_;
  bool queued_ = false;
};

}  // namespace gapscope::app
