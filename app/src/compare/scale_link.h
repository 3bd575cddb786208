// Keeps two timelines on the same view of two runs: B shows what A shows,
// moved by an offset (B's clock minus A's at the step the runs are aligned
// at), at the same zoom. Panning or zooming either one moves the other, and
// each may go as far as the other's content, so the pair never drifts apart.
#pragma once

#include <QObject>

#include "gapscope/model/types.h"

namespace gapscope::app {

class TimelineWidget;

class ScaleLink : public QObject {
  Q_OBJECT

 public:
  ScaleLink(TimelineWidget* a, TimelineWidget* b, QObject* parent = nullptr);

  // B's time of an instant minus A's; re-applies A's view to B.
  void setOffset(TimeNs offset);
  TimeNs offset() const { return offset_; }
  // Both views' pan limits: the union of the two contents on each clock.
  void setContents(TimeNs aStart, TimeNs aEnd, TimeNs bStart, TimeNs bEnd);

 private:
  void follow(TimelineWidget* from, TimelineWidget* to, TimeNs offset);

  TimelineWidget* a_;
  TimelineWidget* b_;
  TimeNs offset_ = 0;
  bool following_ = false;  // a follow in progress: the echo is ignored
};

}  // namespace gapscope::app
