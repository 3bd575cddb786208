// sync-in-step: blocking synchronisation inside the training/inference step.
#include <map>

#include "gapscope/format/duration.h"
#include "gapscope/format/number.h"
#include "report/rules/rules.h"

namespace gapscope::report::rules {
namespace {

using analysis::SyncKind;

bool isBlockingSync(const Slice& s, std::string_view name) {
  if (s.kind != SliceKind::CudaRuntime && s.kind != SliceKind::CudaDriver) return false;
  SyncKind k = analysis::syncKindForName(name);
  return k != SyncKind::None && k != SyncKind::StreamWaitEvent;
}

struct SyncGroup {
  std::int64_t calls = 0;
  TimeNs blocked = 0;
  TimeNs idleCaused = 0;
};

using SyncKey = std::pair<std::string_view, std::string_view>;  // (call, enclosing CPU op)

SyncKey keyOf(const Trace& trace, std::uint32_t slice) {
  std::uint32_t op = enclosingCpuOp(trace, slice);
  return {trace.str(trace.slices[slice].name),
          op == kNoIndex ? std::string_view{} : trace.str(trace.slices[op].name)};
}

}  // namespace

Finding syncInStep(const ReportInputs& in) {
  const double threshold = in.options.thresholds.syncIdlePct;
  const bool hasSteps = !in.steps.ranges.empty();
  Finding f = newFinding("sync-in-step",
                         "a blocking synchronisation call inside a step (anywhere when the trace has no "
                         "steps) and device idle time caused by synchronisation >= " +
                             format::formatNumber(threshold, 1) +
                             "% of the GPU's window (its steps' GPU windows when the trace has steps)");
  std::map<SyncKey, SyncGroup> groups;
  std::int64_t calls = 0;
  for (std::uint32_t i = 0; i < in.trace.slices.size(); ++i) {
    const Slice& s = in.trace.slices[i];
    if (!isBlockingSync(s, in.trace.str(s.name))) continue;
    if (hasSteps && !in.steps.contains(s.start, s.end())) continue;
    SyncGroup& g = groups[keyOf(in.trace, i)];
    ++g.calls;
    g.blocked += s.dur;
    ++calls;
  }
  const VerdictScope scope = verdictScope(in.gaps);
  const TimeNs active = scope.total.active;
  const TimeNs syncIdle = scope.total.idle[analysis::GapCause::Synchronization];
  for (const auto& gap : in.gaps.gaps) {
    if (gap.stream >= 0 || gap.cause != analysis::GapCause::Synchronization || gap.syncCall == kNoIndex) continue;
    auto it = groups.find(keyOf(in.trace, gap.syncCall));
    if (it != groups.end()) it->second.idleCaused += gap.dur;
  }
  double pct = percentOf(static_cast<double>(syncIdle), static_cast<double>(active));
  const char* where = hasSteps ? "inside steps" : "in the trace (no steps)";
  f.summary = std::to_string(calls) + " blocking synchronisation call" + (calls == 1 ? "" : "s") + " " + where +
              "; the GPU sat idle behind synchronisation " + format::formatDuration(syncIdle) + " (" +
              format::formatPercent(pct) + analysis::verdictWindowText(scope.overSteps) + "; threshold " +
              format::formatNumber(threshold, 1) + "%).";
  if (calls == 0 || pct < threshold) return f;

  Table t = makeTable("", "Synchronising calls",
                      {{"call", "Call", ColumnKind::Text},
                       {"cpu_op", "Inside CPU op", ColumnKind::Text},
                       {"calls", "Calls", ColumnKind::Integer},
                       {"blocked_us", "CPU blocked", ColumnKind::Duration},
                       {"gpu_idle_us", "GPU idle after", ColumnKind::Duration}});
  std::vector<std::pair<SyncKey, const SyncGroup*>> rows;
  for (const auto& [key, g] : groups) rows.emplace_back(key, &g);
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second->idleCaused != b.second->idleCaused ? a.second->idleCaused > b.second->idleCaused
                                                        : a.second->calls > b.second->calls;
  });
  for (const auto& [key, g] : rows) {
    t.rows.push_back({textCell(key.first), key.second.empty() ? noCell() : textCell(key.second),
                      intCell(g->calls), durationCell(g->blocked), durationCell(g->idleCaused)});
  }
  f.estimatedSavingNs = syncIdle;
  trigger(f, std::move(t), in.options.maxEvidenceRows,
          {"Find what needs the value on the host: tensor.item(), .cpu(), .tolist(), print(tensor), "
           "if tensor: ..., and ops with data-dependent output shapes (nonzero, masked indexing) all "
           "wait for the GPU.",
           "Keep values on the GPU (accumulate losses as tensors, log every N steps), and use "
           "non_blocking=True copies from pinned memory.",
           "Drop torch.cuda.synchronize() / cudaDeviceSynchronize from the loop; to time code use CUDA "
           "events, and synchronise once at the end."});
  return f;
}

}  // namespace gapscope::report::rules
