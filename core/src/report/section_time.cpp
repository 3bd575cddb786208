// "Where time went": busy and idle by cause per device, stream and step, and
// the utilisation-over-time series behind the chart.
#include <algorithm>

#include "report/report_build.h"

namespace gapscope::report {
namespace {

using analysis::GapCause;
using analysis::kGapCauseCount;

std::vector<Column> idleColumns() {
  std::vector<Column> cols;
  for (std::size_t c = 0; c < kGapCauseCount; ++c) {
    auto cause = static_cast<GapCause>(c);
    cols.push_back({std::string("idle_") + analysis::gapCauseName(cause) + "_us",
                    "Idle: " + std::string(analysis::gapCauseLabel(cause)), ColumnKind::Duration});
  }
  return cols;
}

void appendIdleCells(std::vector<Cell>& row, const analysis::UtilizationStats& u) {
  for (std::size_t c = 0; c < kGapCauseCount; ++c) row.push_back(durationCell(u.idle.ns[c]));
}

std::vector<Cell> utilizationRow(const analysis::UtilizationStats& u) {
  std::vector<Cell> row{intCell(u.device), u.stream < 0 ? noCell() : intCell(u.stream),
                        durationCell(u.activeNs()), durationCell(u.busyNs),
                        realCell(u.utilization() * 100.0), durationCell(u.idleNs())};
  appendIdleCells(row, u);
  row.push_back(intCell(static_cast<std::int64_t>(u.gpuOps)));
  row.push_back(intCell(static_cast<std::int64_t>(u.gapCount)));
  return row;
}

}  // namespace

Table utilizationTable(const ReportInputs& in) {
  std::vector<Column> cols{{"device", "Device", ColumnKind::Integer},
                           {"stream", "Stream", ColumnKind::Integer},
                           {"active_us", "Active window", ColumnKind::Duration},
                           {"busy_us", "Busy", ColumnKind::Duration},
                           {"utilization_pct", "Utilisation", ColumnKind::Percent},
                           {"idle_us", "Idle", ColumnKind::Duration}};
  for (Column& c : idleColumns()) cols.push_back(std::move(c));
  cols.push_back({"gpu_ops", "GPU ops", ColumnKind::Integer});
  cols.push_back({"gaps", "Gaps", ColumnKind::Integer});
  Table t = makeTable("utilization", "GPU utilisation and idle time by cause", std::move(cols));
  t.note =
      "Per device (empty stream) and per stream, inside the active window (first start to last "
      "end of GPU work). Idle time is split by what the GPU waited for.";
  for (const auto& d : in.gaps.devices) {
    t.rows.push_back(utilizationRow(d));
    for (const auto& s : in.gaps.streams)
      if (s.device == d.device) t.rows.push_back(utilizationRow(s));
  }
  t.totalRows = t.rows.size();
  return t;
}

Table stepTable(const Trace& trace, const analysis::GapAnalysis& gaps, std::size_t maxRows) {
  std::vector<Column> cols{{"step", "Step", ColumnKind::Text},
                           {"number", "#", ColumnKind::Integer},
                           {"device", "Device", ColumnKind::Integer},
                           {"cpu_us", "Step time (CPU)", ColumnKind::Duration},
                           {"active_us", "GPU window", ColumnKind::Duration},
                           {"busy_us", "Busy", ColumnKind::Duration},
                           {"utilization_pct", "Utilisation", ColumnKind::Percent}};
  for (Column& c : idleColumns()) cols.push_back(std::move(c));
  cols.push_back({"kernels", "Kernels", ColumnKind::Integer});
  cols.push_back({"launches", "Launches", ColumnKind::Integer});
  Table t = makeTable("steps", "Per step", std::move(cols));
  t.note =
      std::string("One row per step and device: the GPU window runs ") + analysis::kStepWindowText +
      "; kernels and launches are the step's over all devices.";
  if (!gaps.steps.empty() && gaps.steps.front().warmUp)
    t.note += " The first step is a warm-up (over " + std::to_string(analysis::kWarmUpStepFactor) +
              " times the others' median: start-up or compilation), left out of the verdict and the findings.";
  for (const auto& step : gaps.steps) {
    for (const auto& d : step.devices) {
      // A warm-up step is named so wherever this table is shown (the app's Steps dock too).
      const std::string name = std::string(trace.str(step.name)) + (step.warmUp ? " (warm-up)" : "");
      std::vector<Cell> row{textCell(name), intCell(step.number), intCell(d.device),
                            durationCell(step.cpuNs()), durationCell(d.activeNs()), durationCell(d.busyNs),
                            realCell(d.utilization() * 100.0)};
      appendIdleCells(row, d);
      row.push_back(intCell(static_cast<std::int64_t>(step.kernels)));
      row.push_back(intCell(static_cast<std::int64_t>(step.launches)));
      t.rows.push_back(std::move(row));
    }
  }
  limitRows(t, maxRows);
  return t;
}

Table stepsTable(const ReportInputs& in) { return stepTable(in.trace, in.gaps, in.options.maxStepRows); }

std::vector<StepMark> stepMarks(const ReportInputs& in) {
  std::vector<StepMark> marks;
  for (const auto& step : in.gaps.steps)
    marks.push_back(StepMark{std::string(in.trace.str(step.name)), step.cpuStart, step.cpuEnd});
  return marks;
}

std::vector<UtilizationSeries> utilizationSeries(const ReportInputs& in, TimeNs start, TimeNs end) {
  std::vector<UtilizationSeries> out;
  std::size_t bins = std::max<std::size_t>(in.options.timelineBins, 1);
  TimeNs span = end - start;
  if (span <= 0) return out;
  TimeNs binNs = std::max<TimeNs>((span + static_cast<TimeNs>(bins) - 1) / static_cast<TimeNs>(bins), 1);
  bins = static_cast<std::size_t>((span + binNs - 1) / binNs);  // short spans: fewer, 1 ns bins

  // Each device's busy time (GpuBusy) inside each bin; the last bin may be short.
  for (const analysis::DeviceBusy& device : in.busy.devices) {
    UtilizationSeries series{device.device, start, binNs, {}};
    for (std::size_t bin = 0; bin < bins; ++bin) {
      TimeNs binStart = start + static_cast<TimeNs>(bin) * binNs;
      TimeNs width = std::min(binNs, end - binStart);
      TimeNs busy = device.intervals.busyIn(binStart, binStart + width);
      series.busyPct.push_back(width > 0 ? std::min(100.0, percentOf(busy, width)) : 0.0);
    }
    out.push_back(std::move(series));
  }
  return out;
}

}  // namespace gapscope::report
