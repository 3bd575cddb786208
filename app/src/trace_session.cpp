#include "trace_session.h"

#include <algorithm>

#include "gapscope/timeline/slice_queries.h"
#include "models/table_format.h"

namespace gapscope::app {

TraceSession::TraceSession(QObject* parent) : QObject(parent) {}

void TraceSession::updateTrace(LoadedTrace loaded) {
  const std::optional<TimeRange> keptRange = range_;
  const QString keptName = rangeName_;
  liveUpdate_ = hasTrace();
  setTrace(std::move(loaded));
  liveUpdate_ = false;
  if (keptRange) setRange(keptRange, keptName);
}

void TraceSession::setTrace(LoadedTrace loaded) {
  loaded_ = std::move(loaded);
  selection_ = {};
  partner_ = kNoIndex;
  highlights_.clear();
  highlightOrigin_.clear();
  searchText_.clear();
  searchPos_ = -1;
  overlay_ = hasTrace() ? timeline::GapOverlay(trace(), layout(), gaps(), minGapNs_)
                        : timeline::GapOverlay();
  range_.reset();
  rangeName_.clear();
  emit traceChanged();
  emit selectionChanged();
  emit highlightsChanged();
}

void TraceSession::setRange(std::optional<TimeRange> range, const QString& name) {
  if (range && range->end < range->start) std::swap(range->start, range->end);
  if (range && range->duration() <= 0) range.reset();  // a click is not a range
  const QString nextName = range ? name : QString();
  const bool same = range.has_value() == range_.has_value() &&
                    (!range || (range->start == range_->start && range->end == range_->end)) &&
                    nextName == rangeName_;
  if (same) return;
  range_ = range;
  rangeName_ = nextName;
  emit rangeChanged();
}

void TraceSession::selectStep(const analysis::StepStats& step) {
  TimeRange extent{step.cpuStart, step.cpuEnd};
  for (const auto& d : step.devices) extent.end = std::max(extent.end, d.activeEnd);
  // The step's CPU range to the end of the GPU work it launched: its busy
  // share here counts all GPU work in that span (the previous step's still
  // running at its start too), unlike the Steps table's, over its GPU window.
  setRange(extent, tr("%1 with its GPU work").arg(utf8(trace().str(step.name))));
  reveal(extent.start, extent.end, kNoIndex, /*fit=*/true);
}

void TraceSession::selectSlice(std::uint32_t slice) {
  if (!hasTrace() || slice >= trace().slices.size()) return clearSelection();
  const Selection next{Selection::Kind::Slice, slice};
  if (next == selection_) return;
  selection_ = next;
  partner_ = timeline::launchPartner(trace(), slice);
  emit selectionChanged();
}

void TraceSession::selectGap(std::uint32_t gap) {
  if (!hasTrace() || gap >= gaps().gaps.size()) return clearSelection();
  const Selection next{Selection::Kind::Gap, gap};
  if (next == selection_) return;
  selection_ = next;
  partner_ = kNoIndex;
  emit selectionChanged();
}

void TraceSession::focusGap(std::uint32_t gap) {
  if (!hasTrace() || gap >= gaps().gaps.size()) return;
  const auto& g = gaps().gaps[gap];
  const Trace& t = trace();
  std::vector<std::uint32_t> blamed;
  TimeNs from = g.start;
  TimeNs to = g.end();
  const auto include = [&](std::uint32_t slice) {
    if (slice == kNoIndex) return;
    blamed.push_back(slice);
    from = std::min(from, t.slices[slice].start);
    to = std::max(to, t.slices[slice].end());
  };
  include(g.launch);
  include(g.syncCall);
  if (g.launchTrack != kNoIndex && g.cpuOpsCount > 0) {
    std::vector<bool> named(t.strings.size(), false);
    for (const auto& op : analysis::cpuOpsOf(gaps(), g)) {
      if (!op.isUntraced && op.name < named.size()) named[op.name] = true;
    }
    for (std::uint32_t s : timeline::slicesOverlapping(t, layout(), g.launchTrack, g.start, g.end())) {
      if (named[t.slices[s].name]) blamed.push_back(s);
    }
  }
  std::sort(blamed.begin(), blamed.end(),
            [&](std::uint32_t a, std::uint32_t b) { return t.slices[a].start < t.slices[b].start; });
  blamed.erase(std::unique(blamed.begin(), blamed.end()), blamed.end());
  selectGap(gap);
  setHighlights(std::move(blamed), tr("CPU work blamed for the gap"));
  reveal(from, to, g.launch, /*fit=*/true);
}

void TraceSession::focusOccurrences(std::vector<std::uint32_t> slices, const QString& origin, TimeNs from) {
  if (!hasTrace()) return;
  const std::uint32_t longest = timeline::longestSlice(trace(), slices, from);
  setHighlights(std::move(slices), origin);
  if (longest == kNoIndex) return;
  selectSlice(longest);
  revealSlice(longest);
}

void TraceSession::clearSelection() {
  if (selection_.kind == Selection::Kind::None) return;
  selection_ = {};
  partner_ = kNoIndex;
  emit selectionChanged();
}

std::uint32_t TraceSession::selectedSlice() const {
  return selection_.kind == Selection::Kind::Slice ? selection_.index : kNoIndex;
}

void TraceSession::setHighlights(std::vector<std::uint32_t> slices, const QString& origin) {
  highlights_ = std::move(slices);
  highlightOrigin_ = origin;
  searchText_.clear();
  searchPos_ = -1;
  emit highlightsChanged();
}

void TraceSession::search(const QString& text) {
  if (!hasTrace()) return;
  const QString trimmed = text.trimmed();
  if (trimmed == searchText_) return;
  const QByteArray utf8 = trimmed.toUtf8();
  highlights_ = timeline::findSlicesByName(trace(), std::string_view(utf8.constData(), utf8.size()));
  highlightOrigin_ = trimmed.isEmpty() ? QString() : tr("search \"%1\"").arg(trimmed);
  searchText_ = trimmed;
  searchPos_ = -1;
  emit highlightsChanged();
}

void TraceSession::searchNext() { stepSearch(+1); }
void TraceSession::searchPrevious() { stepSearch(-1); }

void TraceSession::stepSearch(int delta) {
  if (highlights_.empty()) return;
  const int n = static_cast<int>(highlights_.size());
  searchPos_ = searchPos_ < 0 ? (delta > 0 ? 0 : n - 1) : ((searchPos_ + delta) % n + n) % n;
  const std::uint32_t slice = highlights_[static_cast<std::size_t>(searchPos_)];
  selectSlice(slice);
  revealSlice(slice);
  emit highlightsChanged();  // the position changed
}

void TraceSession::setGapsShown(bool shown) {
  if (shown == gapsShown_) return;
  gapsShown_ = shown;
  emit gapOverlayChanged();
}

void TraceSession::setMinGapNs(TimeNs ns) {
  ns = std::max(ns, analysis::GapOptions{}.minGapNs);
  if (ns == minGapNs_) return;
  minGapNs_ = ns;
  if (hasTrace()) overlay_ = timeline::GapOverlay(trace(), layout(), gaps(), ns);
  emit gapOverlayChanged();
}

void TraceSession::reveal(TimeNs start, TimeNs end, std::uint32_t slice, bool fit) {
  emit revealRequested(start, end, slice, fit);
}

void TraceSession::revealSlice(std::uint32_t slice) {
  if (!hasTrace() || slice >= trace().slices.size()) return;
  const Slice& s = trace().slices[slice];
  reveal(s.start, s.end(), slice);
}

}  // namespace gapscope::app
