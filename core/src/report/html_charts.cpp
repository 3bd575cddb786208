#include "report/html_charts.h"

#include <array>
#include <algorithm>
#include <cstdio>

#include "gapscope/format/duration.h"
#include "gapscope/format/escape.h"
#include "gapscope/format/number.h"
#include "gapscope/model/time_limits.h"
#include "report/render_common.h"

namespace gapscope::report {
namespace {

std::string num(double v) { return format::formatNumber(v, 1); }

std::string text(double x, double y, const std::string& escaped, const char* cls = "",
                 const char* anchor = "start") {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor + "\"" +
         (*cls ? std::string(" class=\"") + cls + "\"" : "") + ">" + escaped + "</text>";
}

std::string rect(double x, double y, double w, double h, const char* fill, const std::string& title = "") {
  std::string r = "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(std::max(w, 0.0)) +
                  "\" height=\"" + num(std::max(h, 0.0)) + "\" fill=\"" + fill + "\"";
  if (title.empty()) return r + "/>";
  return r + "><title>" + title + "</title></rect>";
}

std::string line(double x1, double y1, double x2, double y2, const char* cls) {
  return "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) +
         "\" class=\"" + cls + "\"/>";
}

std::string svgOpen(double w, double h, const std::string& label) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 " + num(w) + " " + num(h) +
         "\" width=\"" + num(w) + "\" height=\"" + num(h) + "\" role=\"img\" aria-label=\"" +
         format::escapeHtml(label) + "\">";
}

// A round axis maximum at or above v (so bars fill at least ~2/3 of the height).
double niceMax(double v) {
  if (v <= 1) return 1;
  double p = 1;
  while (p * 10 <= v) p *= 10;
  for (double m : {1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0})
    if (m * p >= v) return m * p;
  return 10 * p;
}

// A swatch and a label per idle cause, after `before` (colour, label) pairs, from x along y = 8.
void legend(std::string& s, double x, const std::vector<std::pair<const char*, std::string>>& before) {
  std::vector<std::pair<const char*, std::string>> entries = before;
  for (std::size_t c = 0; c < analysis::kGapCauseCount; ++c) {
    auto cause = static_cast<analysis::GapCause>(c);
    entries.emplace_back(causeColor(cause), analysis::gapCauseLabel(cause));
  }
  for (const auto& [color, label] : entries) {
    s += rect(x, 8, 12, 12, color);
    s += text(x + 16, 18, format::escapeHtml(label), "lbl");
    x += 30 + 7.0 * static_cast<double>(label.size());
  }
}

constexpr const char* kBusyColor = "#2e7d32";
constexpr const char* kOutsideColor = "#cfd6dd";

}  // namespace

std::string utilizationSvg(const Report& r) {
  const auto& series = r.charts.utilization;
  if (series.empty()) return "";
  const double W = 1000, left = 64, right = 12, top = 22, lane = 64, laneGap = 14, axis = 30;
  const double plotW = W - left - right;
  const double H = top + static_cast<double>(series.size()) * (lane + laneGap) + axis;
  const TimeNs span = std::max<TimeNs>(r.trace.span(), 1);
  auto xOf = [&](TimeNs t) { return left + plotW * static_cast<double>(t - r.trace.start) / static_cast<double>(span); };

  std::string s = svgOpen(W, H, "GPU utilisation over time");
  for (std::size_t d = 0; d < series.size(); ++d) {
    const UtilizationSeries& u = series[d];
    double y0 = top + static_cast<double>(d) * (lane + laneGap);
    s += rect(left, y0, plotW, lane, "#eef1f4");
    for (std::size_t i = 0; i < u.busyPct.size(); ++i) {
      if (u.busyPct[i] <= 0) continue;
      TimeNs b0 = u.start + static_cast<TimeNs>(i) * u.binNs;
      double x = xOf(b0), x1 = xOf(std::min(b0 + u.binNs, r.trace.end));
      double h = std::max(1.0, lane * u.busyPct[i] / 100.0);  // any work stays visible
      s += rect(x, y0 + lane - h, x1 - x + 0.3, h, kBusyColor,
                format::escapeHtml(format::formatDuration(b0 - r.trace.start) + ": " +
                                   format::formatPercent(u.busyPct[i]) + " busy"));
    }
    s += text(left - 6, y0 + lane / 2 + 4, "GPU " + std::to_string(u.device), "lbl", "end");
    s += text(left - 6, y0 + 9, "100%", "tick", "end");
    s += text(left - 6, y0 + lane, "0%", "tick", "end");
  }
  const double plotBottom = top + static_cast<double>(series.size()) * (lane + laneGap) - laneGap;
  // Step boundaries: a dashed line at each start, the name above it (names come from the trace).
  double lastLabelX = -1e9;
  for (const StepMark& m : r.charts.steps) {
    double x = xOf(m.start);
    s += line(x, top - 4, x, plotBottom, "step");
    if (x - lastLabelX > 70) {
      std::string name = m.name;
      if (auto hash = name.find('#'); hash != std::string::npos) name = "step " + name.substr(hash + 1);
      s += text(x + 3, top - 7, format::escapeHtml(name), "tick");
      lastLabelX = x;
    }
  }
  for (int i = 0; i <= 4; ++i) {
    TimeNs t = r.trace.start + partOf(span, i, 4);
    double x = xOf(t);
    s += line(x, plotBottom, x, plotBottom + 5, "axis");
    const std::string label = format::formatDuration(t - r.trace.start, format::DurationStyle::AxisLabel);
    s += text(x, plotBottom + 18, format::escapeHtml(label), "tick", i == 0 ? "start" : i == 4 ? "end" : "middle");
  }
  return s + "</svg>";
}

std::string gapHistogramSvg(const Report& r) {
  // Bars are idle time (what the gaps cost), stacked by cause; the number
  // of gaps stands on top of each bar.
  const auto& buckets = r.charts.gapHistogram;
  TimeNs maxIdle = 0;
  for (const auto& b : buckets) maxIdle = std::max(maxIdle, b.totalNs);
  if (maxIdle == 0) return "";
  const double W = 760, left = 64, right = 12, top = 30, plotH = 170, bottom = 40;
  const double H = top + plotH + bottom;
  const double plotW = W - left - right;
  const double band = plotW / static_cast<double>(buckets.size());
  const double yMax = niceMax(static_cast<double>(maxIdle));

  std::string s = svgOpen(W, H, "GPU idle time in gaps, by gap length and cause");
  for (int i = 0; i <= 2; ++i) {
    double v = yMax * i / 2, y = top + plotH - plotH * v / yMax;
    s += line(left, y, left + plotW, y, "grid");
    s += text(left - 6, y + 4, format::escapeHtml(format::formatDuration(static_cast<TimeNs>(v),
                                                                          format::DurationStyle::AxisLabel)),
              "tick", "end");
  }
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    const HistogramBucket& b = buckets[i];
    double x = left + band * static_cast<double>(i) + band * 0.12, w = band * 0.76;
    double y = top + plotH;
    for (std::size_t c = 0; c < analysis::kGapCauseCount; ++c) {
      if (b.idleNs[c] == 0) continue;
      auto cause = static_cast<analysis::GapCause>(c);
      double h = plotH * static_cast<double>(b.idleNs[c]) / yMax;
      y -= h;
      s += rect(x, y, w, h, causeColor(cause),
                format::escapeHtml(std::to_string(b.count[c]) + " " + analysis::gapCauseLabel(cause) + " gaps of " +
                                   bucketLabel(b.minNs, b.maxNs) + ": " + format::formatDuration(b.idleNs[c]) +
                                   " idle"));
    }
    if (b.total() > 0) s += text(x + w / 2, y - 4, std::to_string(b.total()), "tick", "middle");
    s += text(x + w / 2, top + plotH + 16, format::escapeHtml(bucketLabel(b.minNs, b.maxNs)), "tick", "middle");
  }
  legend(s, left, {});
  s += text(left + plotW / 2, H - 6, "gap length (whole device idle); bar: idle time, number: gaps", "tick", "middle");
  return s + "</svg>";
}

std::string distributionSvg(const std::vector<DistributionBucket>& buckets, const std::string& title) {
  std::uint64_t maxCount = 0;
  for (const auto& b : buckets) maxCount = std::max(maxCount, b.count);
  if (maxCount == 0) return "";
  const double W = 460, left = 40, right = 8, top = 24, plotH = 110, bottom = 26;
  const double H = top + plotH + bottom, plotW = W - left - right;
  const double band = plotW / static_cast<double>(buckets.size());
  const double yMax = niceMax(static_cast<double>(maxCount));
  std::string s = svgOpen(W, H, title);
  s += text(left, 14, format::escapeHtml(title), "lbl");
  s += line(left, top + plotH, left + plotW, top + plotH, "axis");
  s += text(left - 6, top + 8, format::formatNumber(yMax, 0), "tick", "end");
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    const DistributionBucket& b = buckets[i];
    double x = left + band * static_cast<double>(i) + band * 0.12, w = band * 0.76;
    double h = plotH * static_cast<double>(b.count) / yMax;
    s += rect(x, top + plotH - h, w, h, "#4f6d8f",
              format::escapeHtml(std::to_string(b.count) + " in " + bucketLabel(b.minNs, b.maxNs)));
    if (b.count > 0) s += text(x + w / 2, top + plotH - h - 3, std::to_string(b.count), "tick", "middle");
    s += text(x + w / 2, top + plotH + 14, format::escapeHtml(bucketLabel(b.minNs, b.maxNs)), "tick small", "middle");
  }
  return s + "</svg>";
}

}  // namespace gapscope::report

namespace gapscope::report {

std::string stepBarsSvg(const compare::Comparison& c) {
  // Per run: GPU busy, then idle by cause (together the GPU window), then
  // the rest of the mean step time, outside any GPU work.
  struct Bar {
    TimeNs step = 0;  // mean step time
    std::vector<std::pair<TimeNs, const char*>> parts;
  };
  std::array<Bar, 2> bars;
  TimeNs longest = 1;
  for (std::size_t i = 0; i < 2; ++i) {
    const compare::RunFigures& r = c.runs[i];
    Bar& b = bars[i];
    b.step = r.steps ? r.stepTimeTotal / static_cast<TimeNs>(r.steps) : 0;
    b.parts.emplace_back(r.busyPerStep, kBusyColor);
    for (std::size_t k = 0; k < analysis::kGapCauseCount; ++k)
      b.parts.emplace_back(r.idlePerStep.ns[k], causeColor(static_cast<analysis::GapCause>(k)));
    b.parts.emplace_back(std::max<TimeNs>(0, b.step - r.activePerStep), kOutsideColor);
    TimeNs total = 0;
    for (const auto& [ns, color] : b.parts) total += ns;
    longest = std::max({longest, total, b.step});
  }
  const double W = 1000, left = 34, right = 190, top = 34, lane = 34, gap = 16;  // right: the mean step's label
  const double plotW = W - left - right, H = top + 2 * lane + gap + 28;
  auto width = [&](TimeNs ns) { return plotW * static_cast<double>(ns) / static_cast<double>(longest); };
  std::string s = svgOpen(W, H, "A step of run A and of run B: GPU busy, idle by cause, outside the GPU window");
  legend(s, left, {{kBusyColor, "GPU busy"}, {kOutsideColor, "outside the GPU window"}});
  for (std::size_t i = 0; i < 2; ++i) {
    const double y = top + static_cast<double>(i) * (lane + gap);
    double x = left;
    s += text(left - 8, y + lane / 2 + 5, i == 0 ? "A" : "B", "lbl", "end");
    for (const auto& [ns, color] : bars[i].parts) {
      if (ns <= 0) continue;
      s += rect(x, y, width(ns), lane, color, format::escapeHtml(format::formatDuration(ns) + " per step"));
      x += width(ns);
    }
    s += text(x + 6, y + lane / 2 + 5,
              format::escapeHtml(format::formatDuration(bars[i].step) + " per step (mean)"), "lbl");
  }
  const double axisY = top + 2 * lane + gap + 6;
  for (int i = 0; i <= 4; ++i) {
    const double x = left + plotW * i / 4;
    s += line(x, axisY, x, axisY + 5, "axis");
    const std::string label = format::formatDuration(partOf(longest, i, 4), format::DurationStyle::AxisLabel);
    s += text(x, axisY + 18, format::escapeHtml(label), "tick", i == 0 ? "start" : i == 4 ? "end" : "middle");
  }
  return s + "</svg>";
}

std::string stepTimesSvg(const compare::Comparison& c) {
  // As the app's Step times tab draws them (panels/step_times_chart.cpp).
  constexpr std::array<const char*, 2> kRunColours = {"#3b82c4", "#e07b26"};
  TimeNs longest = 1;
  std::int64_t first = 0, last = 0;
  bool any = false;
  for (const compare::RunFigures& r : c.runs) {
    for (std::size_t k = 0; k < r.stepTimes.size(); ++k) {
      longest = std::max(longest, r.stepTimes[k]);
      first = any ? std::min(first, r.stepNumbers[k]) : r.stepNumbers[k];
      last = any ? std::max(last, r.stepNumbers[k]) : r.stepNumbers[k];
      any = true;
    }
  }
  if (!any) return "";
  const double W = 1000, left = 64, right = 16, top = 30, plotH = 160, axis = 30;
  const double plotW = W - left - right, H = top + plotH + axis;
  const double yMax = niceMax(static_cast<double>(longest) * 1.05);
  const double span = static_cast<double>(std::max<std::int64_t>(last - first, 1));
  auto xOf = [&](std::int64_t step) {
    return last == first ? left + plotW / 2 : left + plotW * static_cast<double>(step - first) / span;
  };
  auto yOf = [&](double t) { return top + plotH - plotH * t / yMax; };
  std::string s = svgOpen(W, H, "The step time of each step of run A and of run B");
  for (std::size_t run = 0; run < 2; ++run) {
    const double x = left + 140.0 * static_cast<double>(run);
    s += "<line x1=\"" + num(x) + "\" y1=\"14\" x2=\"" + num(x + 18) + "\" y2=\"14\" stroke=\"" +
         kRunColours[run] + "\" stroke-width=\"2\"/>";
    s += text(x + 24, 18, run == 0 ? "A" : "B", "lbl");
  }
  for (int i = 0; i <= 4; ++i) {
    const double t = yMax * i / 4;
    s += line(left, yOf(t), left + plotW, yOf(t), "grid");
    s += text(left - 6, yOf(t) + 4,
              format::escapeHtml(format::formatDuration(static_cast<TimeNs>(t), format::DurationStyle::AxisLabel)),
              "tick", "end");
  }
  const std::int64_t every = std::max<std::int64_t>(1, (last - first) / 10 + 1);
  for (std::int64_t step = first; step <= last; step += every)
    s += text(xOf(step), top + plotH + 18, std::to_string(step), "tick", "middle");
  for (std::size_t run = 0; run < 2; ++run) {
    const compare::RunFigures& r = c.runs[run];
    std::string points;
    std::string dots;
    for (std::size_t k = 0; k < r.stepTimes.size(); ++k) {
      const double x = xOf(r.stepNumbers[k]);
      const double y = yOf(static_cast<double>(r.stepTimes[k]));
      points += (k ? " " : "") + num(x) + "," + num(y);
      dots += "<circle cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"3.5\" fill=\"" + kRunColours[run] +
              "\"><title>" + (run == 0 ? "A" : "B") + ", step " + std::to_string(r.stepNumbers[k]) + ": " +
              format::escapeHtml(format::formatDuration(r.stepTimes[k])) + "</title></circle>";
    }
    s += "<polyline points=\"" + points + "\" fill=\"none\" stroke=\"" + kRunColours[run] + "\" stroke-width=\"2\"/>";
    s += dots;
  }
  return s + "</svg>";
}

}  // namespace gapscope::report
