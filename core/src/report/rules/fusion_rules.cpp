// Fusion opportunities read from the order of kernels on each stream:
// small-kernels-same-op (horizontal), elementwise-chain (vertical) and
// gemm-separate-add (epilogue).
#include <algorithm>
#include <map>
#include <unordered_map>

#include "gapscope/format/duration.h"
#include "report/kernel_names.h"
#include "report/rules/rules.h"

namespace gapscope::report::rules {
namespace {

// ---- small-kernels-same-op

struct Run {
  std::size_t lastPos = 0;
  std::int64_t count = 0;
  TimeNs gpu = 0;
  std::uint32_t sample = kNoIndex;
};

struct SameKernelStats {
  std::int64_t runs = 0, kernels = 0, longest = 0;
  TimeNs gpu = 0;
  std::vector<TimeNs> durations;
  std::uint32_t sample = kNoIndex;
  std::int64_t stream = -1;
};

class SameKernelRuns {
 public:
  SameKernelRuns(const Trace& trace, const RuleThresholds& th) : trace_(trace), th_(th) {}

  void scanStream(const StreamOps& stream) {
    std::unordered_map<StringId, Run> open;
    for (std::size_t pos = 0; pos < stream.ops.size(); ++pos) {
      const Slice& s = trace_.slices[stream.ops[pos]];
      if (s.kind != SliceKind::Kernel) continue;
      auto it = open.find(s.name);
      bool small = s.dur < th_.smallKernelNs;
      bool continues = it != open.end() &&
                       pos - it->second.lastPos - 1 <= static_cast<std::size_t>(th_.sameKernelMaxBetween);
      if (it != open.end() && (!small || !continues)) {
        close(s.name, it->second, stream.stream);
        open.erase(it);
        it = open.end();
      }
      if (!small) continue;
      Run& run = it != open.end() ? it->second : open[s.name];
      if (run.count == 0) run.sample = stream.ops[pos];
      run.lastPos = pos;
      ++run.count;
      run.gpu += s.dur;
      durations_[s.name].push_back(s.dur);
    }
    for (auto& [name, run] : open) close(name, run, stream.stream);
  }

  std::map<StringId, SameKernelStats>& stats() { return stats_; }

 private:
  void close(StringId name, const Run& run, std::int64_t stream) {
    std::vector<TimeNs>& pending = durations_[name];
    if (run.count >= th_.sameKernelMinRepeats) {
      SameKernelStats& st = stats_[name];
      ++st.runs;
      st.kernels += run.count;
      st.longest = std::max(st.longest, run.count);
      st.gpu += run.gpu;
      st.durations.insert(st.durations.end(), pending.begin(), pending.end());
      if (st.sample == kNoIndex) st.sample = run.sample;
      st.stream = stream;
    }
    pending.clear();
  }

  const Trace& trace_;
  const RuleThresholds& th_;
  std::map<StringId, SameKernelStats> stats_;
  std::unordered_map<StringId, std::vector<TimeNs>> durations_;  // of the open run per name
};

// ---- elementwise-chain

struct ChainStats {
  std::string text;     // kernel labels joined by arrows
  std::string cpuOps;   // launching ops joined by arrows
  std::int64_t length = 0, occurrences = 0;
  TimeNs gpu = 0;
};

std::string joinArrows(const std::vector<std::string>& parts, std::size_t maxShown) {
  std::string text;
  for (std::size_t i = 0; i < parts.size() && i < maxShown; ++i) text += (i ? " -> " : "") + parts[i];
  if (parts.size() > maxShown) text += " -> ... (" + std::to_string(parts.size() - maxShown) + " more)";
  return text;
}

std::string chainLabel(std::string_view kernelName) {
  std::string label = kernelLabel(kernelName, 60);
  constexpr std::string_view kPrefix = "elementwise: ";
  if (label.rfind(kPrefix, 0) == 0) label.erase(0, kPrefix.size());
  return label;
}

void recordChain(const Trace& trace, const std::vector<std::uint32_t>& chain,
                 std::map<std::string, ChainStats>& stats) {
  std::string key;
  std::vector<std::string> labels, ops;
  TimeNs gpu = 0;
  for (std::uint32_t i : chain) {
    const Slice& s = trace.slices[i];
    key += std::to_string(s.name) + ",";
    gpu += s.dur;
  }
  ChainStats& st = stats[key];
  if (st.occurrences == 0) {
    for (std::uint32_t i : chain) {
      labels.push_back(chainLabel(trace.str(trace.slices[i].name)));
      std::string_view op = launchingOpName(trace, i);
      ops.push_back(op.empty() ? std::string("?") : std::string(op));
    }
    st.text = joinArrows(labels, 6);
    st.cpuOps = joinArrows(ops, 6);
    st.length = static_cast<std::int64_t>(chain.size());
  }
  ++st.occurrences;
  st.gpu += gpu;
}

}  // namespace

Finding smallKernelsSameOp(const ReportInputs& in) {
  const auto& th = in.options.thresholds;
  Finding f = newFinding(
      "small-kernels-same-op",
      "the same kernel >= " + std::to_string(th.sameKernelMinRepeats) + " times in a run on one stream, <= " +
          std::to_string(th.sameKernelMaxBetween) + " other kernels between repeats, each shorter than " +
          format::formatDuration(th.smallKernelNs, format::DurationStyle::AxisLabel));
  SameKernelRuns runs(in.trace, th);
  for (const StreamOps& s : in.streams) runs.scanStream(s);
  auto& stats = runs.stats();
  std::int64_t kernels = 0, runCount = 0, longest = 0;
  for (const auto& [name, st] : stats) {
    kernels += st.kernels;
    runCount += st.runs;
    longest = std::max(longest, st.longest);
  }
  if (stats.empty()) {
    f.summary = "No small kernel repeats " + std::to_string(th.sameKernelMinRepeats) +
                " or more times back to back on a stream.";
    return f;
  }
  f.summary = std::to_string(stats.size()) + " kernel" + (stats.size() == 1 ? "" : "s") + " ran in " +
              std::to_string(runCount) + " runs of repeated small launches (" + std::to_string(kernels) +
              " kernels; longest run " + std::to_string(longest) + ").";
  Table t = makeTable("", "Repeated small kernels",
                      {{"kernel", "Kernel", ColumnKind::Text, true},
                       {"cpu_op", "Launched by", ColumnKind::Text},
                       {"stream", "Stream", ColumnKind::Integer},
                       {"runs", "Runs", ColumnKind::Integer},
                       {"kernels", "Kernels in runs", ColumnKind::Integer},
                       {"longest_run", "Longest run", ColumnKind::Integer},
                       {"median_us", "Median duration", ColumnKind::Duration},
                       {"gpu_total_us", "GPU time", ColumnKind::Duration}});
  std::vector<std::pair<StringId, const SameKernelStats*>> rows;
  for (const auto& [name, st] : stats) rows.emplace_back(name, &st);
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.second->kernels > b.second->kernels; });
  for (const auto& [name, st] : rows) {
    t.rows.push_back({textCell(in.trace.str(name)), textCell(launchingOpName(in.trace, st->sample)),
                      intCell(st->stream), intCell(st->runs), intCell(st->kernels), intCell(st->longest),
                      durationCell(medianOf(st->durations)), durationCell(st->gpu)});
  }
  trigger(f, std::move(t), in.options.maxEvidenceRows,
          {"Batch the repeated work into one launch: stack the inputs and run the op once (one "
           "LayerNorm over a stacked tensor, torch.bmm or a grouped GEMM instead of a loop of "
           "matmuls).",
           "Use the multi-tensor forms where they exist: torch._foreach_* ops and fused optimizers "
           "(foreach=True / fused=True).",
           "torch.compile can fuse independent same-shaped ops (horizontal fusion) into one kernel."});
  return f;
}

Finding elementwiseChain(const ReportInputs& in) {
  const auto& th = in.options.thresholds;
  Finding f = newFinding("elementwise-chain", ">= " + std::to_string(th.elementwiseChainMin) +
                                                  " element-wise kernels back to back on one stream");
  std::map<std::string, ChainStats> stats;
  KernelClassifier kinds(in.trace);
  for (const StreamOps& s : in.streams) {
    std::vector<std::uint32_t> chain;
    auto flush = [&] {
      if (static_cast<std::int64_t>(chain.size()) >= th.elementwiseChainMin) recordChain(in.trace, chain, stats);
      chain.clear();
    };
    for (std::uint32_t i : s.ops) {
      const Slice& slice = in.trace.slices[i];
      if (slice.kind == SliceKind::Kernel && kinds.isElementwise(slice.name)) {
        chain.push_back(i);
      } else {
        flush();
      }
    }
    flush();
  }
  std::int64_t chains = 0;
  TimeNs gpu = 0;
  for (const auto& [key, st] : stats) {
    chains += st.occurrences;
    gpu += st.gpu;
  }
  if (chains == 0) {
    f.summary = "No run of " + std::to_string(th.elementwiseChainMin) +
                " or more element-wise kernels back to back on a stream.";
    return f;
  }
  f.summary = std::to_string(chains) + " chain" + (chains == 1 ? "" : "s") +
              " of element-wise kernels ran back to back (" + format::formatDuration(gpu) +
              " of GPU time); each kernel reads and writes its tensors in memory.";
  Table t = makeTable("", "Element-wise chains",
                      {{"chain", "Kernels", ColumnKind::Text},
                       {"cpu_ops", "Launched by", ColumnKind::Text},
                       {"length", "Length", ColumnKind::Integer},
                       {"occurrences", "Times", ColumnKind::Integer},
                       {"gpu_total_us", "GPU time", ColumnKind::Duration}});
  std::vector<const ChainStats*> rows;
  for (const auto& [key, st] : stats) rows.push_back(&st);
  std::stable_sort(rows.begin(), rows.end(), [](const ChainStats* a, const ChainStats* b) { return a->gpu > b->gpu; });
  for (const ChainStats* st : rows) {
    t.rows.push_back({textCell(st->text), textCell(st->cpuOps), intCell(st->length), intCell(st->occurrences),
                      durationCell(st->gpu)});
  }
  trigger(f, std::move(t), in.options.maxEvidenceRows,
          {"torch.compile fuses chains of element-wise ops into one kernel that reads the inputs "
           "once and writes the result once.",
           "Use fused forms where PyTorch has them (torch.addcmul, F.gelu, fused optimizers, "
           "scaled_dot_product_attention) or write the chain as one Triton kernel."});
  return f;
}

Finding gemmSeparateAdd(const ReportInputs& in) {
  const auto& th = in.options.thresholds;
  Finding f = newFinding("gemm-separate-add",
                         ">= " + std::to_string(th.gemmAddMinPairs) +
                             " GEMM kernels without a bias epilogue directly followed by an element-wise "
                             "add on the same stream");
  struct Pair {
    StringId gemm = kEmptyString, add = kEmptyString;
    std::uint32_t sampleGemm = kNoIndex, sampleAdd = kNoIndex;
    std::int64_t count = 0;
    TimeNs addGpu = 0;
  };
  std::map<std::pair<StringId, StringId>, Pair> pairs;
  std::int64_t total = 0;
  KernelClassifier kinds(in.trace);
  for (const StreamOps& s : in.streams) {
    for (std::size_t i = 0; i + 1 < s.ops.size(); ++i) {
      const Slice& a = in.trace.slices[s.ops[i]];
      const Slice& b = in.trace.slices[s.ops[i + 1]];
      if (a.kind != SliceKind::Kernel || b.kind != SliceKind::Kernel) continue;
      if (!kinds.isGemmWithoutBias(a.name) || !kinds.isAdd(b.name)) continue;
      if (opAlreadyAddsToGemm(launchingOpName(in.trace, s.ops[i]))) continue;
      Pair& p = pairs[{a.name, b.name}];
      if (p.count == 0) p = Pair{a.name, b.name, s.ops[i], s.ops[i + 1], 0, 0};
      ++p.count;
      p.addGpu += b.dur;
      ++total;
    }
  }
  if (total < th.gemmAddMinPairs) {
    f.summary = "No GEMM is directly followed by a separate add kernel.";
    return f;
  }
  TimeNs addGpu = 0;
  for (const auto& [key, p] : pairs) addGpu += p.addGpu;
  f.summary = std::to_string(total) + " GEMM" + (total == 1 ? " was" : "s were") +
              " followed by a separate add kernel (" + format::formatDuration(addGpu) +
              " of GPU time in the adds, plus one launch each).";
  Table t = makeTable("", "GEMM then add",
                      {{"gemm", "GEMM kernel", ColumnKind::Text, true},
                       {"gemm_cpu_op", "GEMM launched by", ColumnKind::Text},
                       {"add", "Add kernel", ColumnKind::Text, true},
                       {"add_cpu_op", "Add launched by", ColumnKind::Text},
                       {"pairs", "Times", ColumnKind::Integer},
                       {"add_gpu_us", "Add GPU time", ColumnKind::Duration}});
  std::vector<const Pair*> rows;
  for (const auto& [key, p] : pairs) rows.push_back(&p);
  std::stable_sort(rows.begin(), rows.end(), [](const Pair* a, const Pair* b) { return a->count > b->count; });
  for (const Pair* p : rows) {
    t.rows.push_back({textCell(in.trace.str(p->gemm)), textCell(launchingOpName(in.trace, p->sampleGemm)),
                      textCell(in.trace.str(p->add)), textCell(launchingOpName(in.trace, p->sampleAdd)),
                      intCell(p->count), durationCell(p->addGpu)});
  }
  f.estimatedSavingNs = addGpu;
  trigger(f, std::move(t), in.options.maxEvidenceRows,
          {"Let the GEMM add the term: torch.addmm(b, x, w) computes x @ w + b in one cuBLAS call "
           "(beta * C), for a bias vector or a full matrix.",
           "For a bias vector use nn.Linear / F.linear(x, w, b): cuBLASLt applies it in the GEMM "
           "epilogue.",
           "torch.compile fuses the add into the matmul's epilogue as well."});
  return f;
}

}  // namespace gapscope::report::rules
