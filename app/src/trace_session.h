// The open trace and what the user is looking at in it: the selection, the
// highlighted slices (search results, a table row's occurrences), the gap
// overlay settings. Every view observes this one object, so a click in a
// table and a click on the timeline end in the same place.
#pragma once

#include <QObject>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

#include "gapscope/model/time_limits.h"
#include "gapscope/timeline/gap_overlay.h"
#include "loaded_trace.h"

namespace gapscope::app {

struct Selection {
  enum class Kind { None, Slice, Gap };
  Kind kind = Kind::None;
  std::uint32_t index = kNoIndex;  // slice index or gap index
  friend bool operator==(const Selection&, const Selection&) = default;
};

class TraceSession : public QObject {
  Q_OBJECT

 public:
  explicit TraceSession(QObject* parent = nullptr);

  void setTrace(LoadedTrace loaded);
  // A newer snapshot of the same trace (a recording in progress): views keep
  // what the user looks at (zoom, scroll, folded lanes, the selected range);
  // the selection and highlights, which name slices of the old snapshot,
  // are cleared. `liveUpdate()` is true while traceChanged is emitted for it.
  void updateTrace(LoadedTrace loaded);
  bool liveUpdate() const { return liveUpdate_; }
  const LoadedTrace& loaded() const { return loaded_; }
  bool hasTrace() const { return loaded_.valid(); }
  const Trace& trace() const { return *loaded_.trace; }
  const timeline::TimelineLayout& layout() const { return *loaded_.layout; }
  const analysis::GapAnalysis& gaps() const { return loaded_.gaps(); }
  const analysis::TraceAnalysis& analysis() const { return *loaded_.analysis; }

  // Selection. Selecting a slice also finds its launch/kernel partner.
  void selectSlice(std::uint32_t slice);
  void selectGap(std::uint32_t gap);
  // Selects a gap, highlights the CPU work blamed for it (its launch call,
  // the blocking call, the ops on the launching thread inside it) and shows
  // all of that on the timeline.
  void focusGap(std::uint32_t gap);
  // Highlights every slice of `slices`, selects the longest (of those
  // starting at `from` or later, if any) and shows it.
  void focusOccurrences(std::vector<std::uint32_t> slices, const QString& origin, TimeNs from = -kMaxAbsTimeNs);
  void clearSelection();
  Selection selection() const { return selection_; }
  std::uint32_t selectedSlice() const;
  std::uint32_t partnerSlice() const { return partner_; }

  // Highlighted slices (sorted by start), with a word on where they came from.
  void setHighlights(std::vector<std::uint32_t> slices, const QString& origin);
  const std::vector<std::uint32_t>& highlights() const { return highlights_; }
  QString highlightOrigin() const { return highlightOrigin_; }

  // Search by name: highlights every match; next/previous select them in turn.
  void search(const QString& text);
  void searchNext();
  void searchPrevious();
  QString searchText() const { return searchText_; }
  int searchPosition() const { return searchPos_; }  // -1 before the first step
  std::size_t searchCount() const { return searchText_.isEmpty() ? 0 : highlights_.size(); }

  // Gap overlay: shown at all, and the shortest gap shown.
  bool gapsShown() const { return gapsShown_; }
  void setGapsShown(bool shown);
  TimeNs minGapNs() const { return minGapNs_; }
  // Never below the analysis' own threshold (shorter gaps were not listed).
  void setMinGapNs(TimeNs ns);
  const timeline::GapOverlay& gapOverlay() const { return overlay_; }

  // The time range the user selected (a drag on the time axis, shift-drag
  // on the lanes, a step picked): the kernel, operator and gap tables and
  // the range summary then cover it only. Cleared with the trace.
  // `name` says what the range is when it is not a drag ("ProfilerStep#8
  // with its GPU work"); the status bar shows it.
  void setRange(std::optional<TimeRange> range, const QString& name = QString());
  std::optional<TimeRange> range() const { return range_; }
  QString rangeName() const { return rangeName_; }
  // Select a step's range (its CPU range up to the end of the GPU work it
  // launched, which runs later) and zoom to it.
  void selectStep(const analysis::StepStats& step);

  // Asks the timeline to show [start, end) (and the row of `slice`, if
  // any): keeping the zoom when it is already readable there, or (`fit`)
  // zooming to exactly that range.
  void reveal(TimeNs start, TimeNs end, std::uint32_t slice = kNoIndex, bool fit = false);
  void revealSlice(std::uint32_t slice);

  // A point of a memory lane picked (a click): the Memory dock lists the
  // allocations live on `device` at `ts`.
  void pickMemoryTime(std::int32_t device, TimeNs ts) { emit memoryTimePicked(device, ts); }

 signals:
  // A new trace: everything changed, the gap overlay too (gapOverlayChanged
  // is not sent as well, so that a view listening to both rebuilds once).
  void traceChanged();
  void selectionChanged();
  void highlightsChanged();
  void gapOverlayChanged();  // shown or hidden, or a new shortest gap
  void rangeChanged();
  void revealRequested(qint64 start, qint64 end, quint32 slice, bool fit);
  void memoryTimePicked(qint32 device, qint64 ts);

 private:
  void stepSearch(int delta);

  LoadedTrace loaded_;
  Selection selection_;
  std::uint32_t partner_ = kNoIndex;
  std::vector<std::uint32_t> highlights_;
  QString highlightOrigin_;
  QString searchText_;
  int searchPos_ = -1;
  bool gapsShown_ = true;
  TimeNs minGapNs_ = analysis::GapOptions{}.minGapNs;
  timeline::GapOverlay overlay_;
  std::optional<TimeRange> range_;
  QString rangeName_;
  bool liveUpdate_ = false;
};

}  // namespace gapscope::app
