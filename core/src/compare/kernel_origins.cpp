// Where kernels came from: the operator and the user annotation around
// each launch call (Slice::parent, found through the correlation id), and
// the operators an Inductor kernel's name lists.
#include <algorithm>

#include "compare/compare_detail.h"

namespace gapscope::compare::detail {
namespace {

void addOnce(std::vector<std::string>& names, std::string_view name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
}

bool isStepAnnotation(const Trace& trace, const Slice& s, StringId stepName) {
  return s.name == stepName || analysis::isProfilerStepName(trace.str(s.name));
}

// Walks out from the launch call: the innermost cpu op and the innermost
// user annotation that is not a step.
void addOrigin(const Trace& trace, std::uint32_t launch, StringId stepName, KernelOrigin& origin) {
  bool haveOp = false;
  bool haveAnnotation = false;
  for (std::uint32_t p = trace.slices[launch].parent; p != kNoIndex && !(haveOp && haveAnnotation);
       p = trace.slices[p].parent) {
    const Slice& s = trace.slices[p];
    if (!haveOp && s.kind == SliceKind::CpuOp) {
      addOnce(origin.ops, trace.str(s.name));
      haveOp = true;
    } else if (!haveAnnotation && s.kind == SliceKind::UserAnnotation && !isStepAnnotation(trace, s, stepName)) {
      addOnce(origin.annotations, trace.str(s.name));
      haveAnnotation = true;
    }
  }
}

bool allDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

KernelOrigins kernelOrigins(const Trace& trace, const std::unordered_set<std::string>& names,
                            StringId stepName) {
  KernelOrigins origins;
  if (names.empty()) return origins;
  // Decided once per distinct name: 0 not wanted, 1 wanted.
  std::vector<std::int8_t> wanted(trace.strings.size(), -1);
  for (const Track& t : trace.tracks) {
    if (t.kind != TrackKind::GpuStream) continue;
    for (const Slice* s = trace.trackBegin(t); s != trace.trackEnd(t); ++s) {
      if (!isGpuActivity(s->kind)) continue;
      std::int8_t& w = wanted[s->name];
      if (w < 0) w = names.count(std::string(trace.str(s->name))) ? 1 : 0;
      if (!w) continue;
      KernelOrigin& origin = origins[std::string(trace.str(s->name))];
      std::uint32_t launch = trace.launchForCorrelation(s->correlation);
      if (launch != kNoIndex) addOrigin(trace, launch, stepName, origin);
    }
  }
  return origins;
}

std::string_view fusedOpList(std::string_view name) {
  constexpr std::string_view kFused = "_fused_";
  if (name.substr(0, 7) != "triton_") return {};
  auto at = name.find(kFused);
  if (at == std::string_view::npos) return {};
  std::string_view list = name.substr(at + kFused.size());
  // Inductor ends the name with the kernel's number: "_0", "_12".
  auto last = list.rfind('_');
  if (last != std::string_view::npos && allDigits(list.substr(last + 1))) list = list.substr(0, last);
  return list;
}

bool fusedListNames(std::string_view opList, std::string_view op) {
  if (opList.empty()) return false;
  auto ns = op.rfind("::");
  if (ns != std::string_view::npos) op = op.substr(ns + 2);
  // In-place ops (add_) fuse under their functional name (add); "_to_copy"
  // keeps its leading underscore.
  if (op.size() > 1 && op.back() == '_') op.remove_suffix(1);
  if (op.empty()) return false;
  const std::string haystack = "_" + std::string(opList) + "_";
  return haystack.find("_" + std::string(op) + "_") != std::string::npos;
}

}  // namespace gapscope::compare::detail
