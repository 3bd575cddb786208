// Hotspots: top operators, top kernels, the worst gaps with the CPU work
// blamed for them, and the launch/queue-time distributions.
#include <algorithm>
#include <limits>

#include "gapscope/analysis/gap_histogram.h"
#include "gapscope/format/duration.h"
#include "gapscope/model/time_limits.h"
#include "report/report_build.h"

namespace gapscope::report {
namespace {

using analysis::OpDevice;
using analysis::OpRow;

const char* sliceKindWord(SliceKind k) {
  switch (k) {
    case SliceKind::Memcpy: return "memcpy";
    case SliceKind::Memset: return "memset";
    default: return "kernel";
  }
}

std::string opsBlamedText(const Trace& trace, const std::vector<analysis::CpuOpBlame>& ops) {
  constexpr std::size_t kShown = 4;  // the largest; the rest adds little to a table cell
  std::string text;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const auto& op = ops[i];
    if (i == kShown) {
      text += "; +" + std::to_string(ops.size() - kShown) + " more";
      break;
    }
    if (!text.empty()) text += "; ";
    text += op.isUntraced ? std::string("(untraced)") : std::string(trace.str(op.name));
    text += " " + format::formatDuration(op.selfNs);
  }
  return text;
}

Cell sliceNameCell(const Trace& trace, std::uint32_t slice) {
  return slice == kNoIndex ? noCell() : textCell(trace.str(trace.slices[slice].name));
}

std::vector<const OpRow*> cpuRows(const analysis::OpTable& ops, TimeNs OpRow::*key) {
  std::vector<const OpRow*> rows;
  for (const OpRow& r : ops.rows)
    if (r.device == OpDevice::Cpu && r.*key > 0) rows.push_back(&r);
  std::stable_sort(rows.begin(), rows.end(), [key](const OpRow* a, const OpRow* b) {
    return a->*key != b->*key ? a->*key > b->*key : a->name < b->name;
  });
  return rows;
}

std::vector<DistributionBucket> bucketsFromEdges(const std::vector<TimeNs>& edges) {
  std::vector<DistributionBucket> buckets;
  for (std::size_t i = 0; i < edges.size(); ++i)
    buckets.push_back({edges[i], i + 1 < edges.size() ? edges[i + 1] : -1, 0});
  return buckets;
}

template <typename Bucket>
std::size_t bucketIndex(const std::vector<Bucket>& buckets, TimeNs value) {
  for (std::size_t i = buckets.size(); i-- > 0;)
    if (value >= buckets[i].minNs) return i;
  return 0;
}

// Empty buckets past the last filled one only stretch the chart; the last
// kept bucket keeps its upper bound (nothing lies beyond it).
template <typename Bucket, typename Count>
void dropEmptyTail(std::vector<Bucket>& buckets, Count count) {
  while (buckets.size() > 1 && count(buckets.back()) == 0) buckets.pop_back();
}

}  // namespace

Table topOpsBySelfDeviceTable(const ReportInputs& in) {
  Table t = makeTable("top_ops_self_device", "Top operators by self device time",
                      {{"name", "Operator", ColumnKind::Text},
                       {"calls", "Calls", ColumnKind::Integer},
                       {"self_device_us", "Self device", ColumnKind::Duration},
                       {"self_device_pct", "Self device %", ColumnKind::Percent},
                       {"device_total_us", "Device total", ColumnKind::Duration},
                       {"self_cpu_us", "Self CPU", ColumnKind::Duration},
                       {"cpu_total_us", "CPU total", ColumnKind::Duration}});
  t.note = "CPU operators by the GPU time of the work they launched directly (PyTorch's Self CUDA).";
  for (const OpRow* r : cpuRows(in.ops, &OpRow::selfDevice)) {
    t.rows.push_back({textCell(r->name), intCell(r->calls), durationCell(r->selfDevice),
                      realCell(in.ops.selfDevicePct(*r)), durationCell(r->deviceTotal),
                      durationCell(r->selfCpu), durationCell(r->cpuTotal)});
  }
  limitRows(t, in.options.topOps);
  return t;
}

Table topOpsBySelfCpuTable(const ReportInputs& in) {
  Table t = makeTable("top_ops_self_cpu", "Top operators by self CPU time",
                      {{"name", "Operator", ColumnKind::Text},
                       {"calls", "Calls", ColumnKind::Integer},
                       {"self_cpu_us", "Self CPU", ColumnKind::Duration},
                       {"self_cpu_pct", "Self CPU %", ColumnKind::Percent},
                       {"cpu_total_us", "CPU total", ColumnKind::Duration},
                       {"cpu_avg_us", "CPU avg", ColumnKind::Duration},
                       {"self_device_us", "Self device", ColumnKind::Duration}});
  t.note = "CPU time spent in each operator itself, children excluded (PyTorch's Self CPU).";
  for (const OpRow* r : cpuRows(in.ops, &OpRow::selfCpu)) {
    t.rows.push_back({textCell(r->name), intCell(r->calls), durationCell(r->selfCpu),
                      realCell(in.ops.selfCpuPct(*r)), durationCell(r->cpuTotal),
                      durationCell(r->cpuAvg()), durationCell(r->selfDevice)});
  }
  limitRows(t, in.options.topOps);
  return t;
}

Table topKernelsTable(const ReportInputs& in) {
  Table t = makeTable("top_kernels", "Top kernels",
                      {{"name", "Kernel", ColumnKind::Text, true},
                       {"kind", "Kind", ColumnKind::Text},
                       {"calls", "Calls", ColumnKind::Integer},
                       {"total_us", "Total", ColumnKind::Duration},
                       {"gpu_pct", "GPU %", ColumnKind::Percent},
                       {"avg_us", "Avg", ColumnKind::Duration},
                       {"min_us", "Min", ColumnKind::Duration},
                       {"max_us", "Max", ColumnKind::Duration},
                       {"grid", "Grid", ColumnKind::Text},
                       {"block", "Block", ColumnKind::Text},
                       {"registers", "Registers", ColumnKind::Integer},
                       {"shared_memory_bytes", "Shared mem (B)", ColumnKind::Integer},
                       {"occupancy_pct", "Est. occupancy", ColumnKind::Percent}});
  t.note =
      "GPU activities by total time, with the launch configuration of the first call (\"*\" in "
      "grid: calls used several) and Kineto's estimated achieved occupancy.";
  for (const auto& k : in.kernels.rows) {
    Cell grid = dim3Cell(k.grid);
    if (k.configVaries && std::holds_alternative<std::string>(grid)) std::get<std::string>(grid) += " *";
    t.rows.push_back({textCell(k.name), textCell(sliceKindWord(k.kind)), intCell(k.calls),
                      durationCell(k.total), realCell(k.pctGpu), durationCell(k.avg()),
                      durationCell(k.min), durationCell(k.max), grid, dim3Cell(k.block),
                      k.registersPerThread < 0 ? noCell() : intCell(k.registersPerThread),
                      k.sharedMemory < 0 ? noCell() : intCell(k.sharedMemory),
                      k.occupancyPct < 0 ? noCell() : realCell(k.occupancyPct)});
  }
  limitRows(t, in.options.topKernels);
  return t;
}

Table worstGapsTable(const ReportInputs& in) {
  Table t = makeTable("worst_gaps", "Worst gaps",
                      {{"offset_us", "At", ColumnKind::Duration},
                       {"duration_us", "Duration", ColumnKind::Duration},
                       {"device", "Device", ColumnKind::Integer},
                       {"cause", "Cause", ColumnKind::Text},
                       {"explanation", "Why", ColumnKind::Text},
                       {"before", "Previous GPU op", ColumnKind::Text, true},
                       {"after", "Next GPU op", ColumnKind::Text, true},
                       {"cpu_ops", "CPU work in the gap", ColumnKind::Text}});
  t.note =
      "The longest stretches with the whole device idle; \"At\" counts from the start of the "
      "trace; CPU work is the launching thread's self time inside the gap.";
  std::vector<const analysis::Gap*> gaps;
  for (const auto& g : in.gaps.gaps)
    if (g.stream < 0) gaps.push_back(&g);
  std::stable_sort(gaps.begin(), gaps.end(), [](const analysis::Gap* a, const analysis::Gap* b) {
    return a->dur != b->dur ? a->dur > b->dur : a->start < b->start;
  });
  std::size_t limit = std::min(gaps.size(), in.options.worstGaps);
  for (std::size_t i = 0; i < limit; ++i) {
    const analysis::Gap& g = *gaps[i];
    t.rows.push_back({durationCell(g.start - in.trace.minTime()), durationCell(g.dur), intCell(g.device),
                      textCell(analysis::gapCauseName(g.cause)), textCell(analysis::explainGap(in.trace, g)),
                      sliceNameCell(in.trace, g.before), sliceNameCell(in.trace, g.after),
                      textCell(opsBlamedText(in.trace, analysis::cpuOpsOf(in.gaps, g)))});
  }
  t.totalRows = gaps.size();
  return t;
}

Table blamedCpuOpsTable(const ReportInputs& in) {
  Table t = makeTable("blamed_cpu_ops", "CPU work behind launch-overhead idle time",
                      {{"name", "CPU op", ColumnKind::Text},
                       {"self_us", "Self time in gaps", ColumnKind::Duration},
                       {"share_pct", "Share", ColumnKind::Percent}});
  t.note =
      "What the launching threads did while the GPU waited for launches, over every such gap; "
      "\"(untraced)\" is time covered by no traced op (Python, the framework).";
  TimeNs total = 0;
  for (const auto& op : in.gaps.overheadCpuOps) total = addSaturating(total, op.selfNs);
  for (const auto& op : in.gaps.overheadCpuOps) {
    t.rows.push_back({textCell(op.isUntraced ? std::string_view("(untraced)") : in.trace.str(op.name)),
                      durationCell(op.selfNs), realCell(percentOf(op.selfNs, total))});
  }
  limitRows(t, in.options.topOps);
  return t;
}

Table launchDistributionsTable(const ReportInputs& in) {
  Table t = makeTable("launch_distributions", "Launch and queue times",
                      {{"metric", "Metric", ColumnKind::Text},
                       {"count", "Count", ColumnKind::Integer},
                       {"median_us", "Median", ColumnKind::Duration},
                       {"p90_us", "p90", ColumnKind::Duration},
                       {"max_us", "Max", ColumnKind::Duration}});
  t.note =
      "Launch: duration of the runtime/driver call. Queue: from the call's end to its GPU work's "
      "start (negative when the GPU started before the call returned).";
  const auto& s = in.gaps.launchStats;
  auto row = [&](const char* metric, const analysis::Distribution& d) {
    if (d.count == 0) {
      t.rows.push_back({textCell(metric), intCell(0), noCell(), noCell(), noCell()});
      return;
    }
    t.rows.push_back({textCell(metric), intCell(static_cast<std::int64_t>(d.count)), durationCell(d.median),
                      durationCell(d.p90), durationCell(d.max)});
  };
  row("launch", s.launchNs);
  row("queue", s.queueNs);
  t.totalRows = t.rows.size();
  return t;
}

std::vector<HistogramBucket> gapHistogram(const ReportInputs& in) {
  const analysis::GapHistogram h = analysis::deviceGapHistogram(in.gaps, in.gapOptions.minGapNs);
  std::vector<HistogramBucket> buckets;
  for (std::size_t b = 0; b < h.bins.bins(); ++b)
    buckets.push_back({h.bins.lo[b], h.bins.hi[b], h.count[b], h.idleIn(b), h.idleNs[b]});
  return buckets;
}

std::vector<DistributionBucket> launchHistogram(const ReportInputs& in) {
  auto buckets = bucketsFromEdges({0, 2'000, 5'000, 10'000, 20'000, 50'000, 100'000, 1'000'000});
  for (const auto& l : in.gaps.launches) ++buckets[bucketIndex(buckets, l.launchNs)].count;
  dropEmptyTail(buckets, [](const DistributionBucket& b) { return b.count; });
  return buckets;
}

std::vector<DistributionBucket> queueHistogram(const ReportInputs& in) {
  auto buckets = bucketsFromEdges({std::numeric_limits<TimeNs>::min(), 0, 1'000, 5'000, 10'000, 50'000,
                                   100'000, 1'000'000, 10'000'000});
  for (const auto& l : in.gaps.launches) ++buckets[bucketIndex(buckets, l.queueNs)].count;
  dropEmptyTail(buckets, [](const DistributionBucket& b) { return b.count; });
  return buckets;
}

}  // namespace gapscope::report
