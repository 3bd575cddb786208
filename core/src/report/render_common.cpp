#include "report/render_common.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gapscope/format/duration.h"
#include "gapscope/format/number.h"

namespace gapscope::report {

std::string cellText(const Column& column, const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return "-";
  if (const auto* s = std::get_if<std::string>(&cell)) return column.abbreviate ? kernelLabel(*s) : *s;
  if (const auto* i = std::get_if<std::int64_t>(&cell)) {
    if (column.kind == ColumnKind::Duration) return *i == 0 ? "0" : format::formatDuration(*i);
    if (column.kind == ColumnKind::Bytes) return format::formatBytes(*i);
    return std::to_string(*i);
  }
  double v = std::get<double>(cell);
  if (column.kind == ColumnKind::Percent) return format::formatPercent(v);
  return format::formatNumber(v, 2);
}

std::string fullText(const Cell& cell) {
  const auto* s = std::get_if<std::string>(&cell);
  return s ? *s : std::string();
}

std::string bucketLabel(TimeNs minNs, TimeNs maxNs) {
  const std::string hi = format::formatDuration(maxNs, format::DurationStyle::AxisLabel);
  if (minNs == std::numeric_limits<TimeNs>::min()) return maxNs == 0 ? "< 0" : "< " + hi;
  if (minNs == 0 && maxNs > 0) return "< " + hi;
  const std::string lo = format::formatDuration(minNs, format::DurationStyle::AxisLabel);
  if (maxNs < 0) return ">= " + lo;
  // "1 µs-2 µs" reads better as "1-2 µs" when both share the unit.
  auto unitOf = [](const std::string& s) { return s.substr(s.find(' ') + 1); };
  if (minNs > 0 && unitOf(lo) == unitOf(hi)) return lo.substr(0, lo.find(' ')) + "-" + hi;
  return lo + " - " + hi;
}

const char* causeColor(analysis::GapCause cause) {
  switch (cause) {
    case analysis::GapCause::LaunchOverhead: return "#d1495b";
    case analysis::GapCause::Synchronization: return "#edae49";
    case analysis::GapCause::Queued: return "#00798c";
    case analysis::GapCause::Other: return "#8d8d8d";
  }
  return "#8d8d8d";
}

std::string sparkline(const std::vector<double>& pct, std::size_t width) {
  static const char* kBlocks[] = {"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588"};
  std::string out;
  if (pct.empty() || width == 0) return out;
  for (std::size_t c = 0; c < width; ++c) {
    std::size_t from = c * pct.size() / width, to = std::max(from + 1, (c + 1) * pct.size() / width);
    double sum = 0;
    for (std::size_t i = from; i < to && i < pct.size(); ++i) sum += pct[i];
    double mean = sum / static_cast<double>(to - from);
    int level = static_cast<int>(std::lround(std::clamp(mean, 0.0, 100.0) / 100.0 * 7.0));
    out += kBlocks[level];
  }
  return out;
}

std::vector<Section> tableSections(const Report& report) {
  auto pick = [&](std::initializer_list<const char*> ids) {
    std::vector<const Table*> out;
    for (const char* id : ids)
      if (const Table* t = report.table(id)) out.push_back(t);
    return out;
  };
  return {
      {"Where time went", pick({"utilization", "steps"})},
      {"Hotspots", pick({"top_ops_self_device", "top_ops_self_cpu", "top_kernels"})},
      {"Gaps", pick({"worst_gaps", "blamed_cpu_ops"})},
      {"Launches", pick({"launch_distributions"})},
      {"Code and memory", pick({"idle_frames", "memory_devices", "memory_live_at_peak"})},
  };
}

}  // namespace gapscope::report
