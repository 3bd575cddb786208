// Which slices take part in the operator table, and PyTorch's CPU nesting.
// Private to the ops analysis.
#pragma once

#include <cstdint>
#include <vector>

#include "gapscope/model/trace.h"

namespace gapscope::analysis::ops {

enum class OpEventClass : std::uint8_t {
  Skip,  // not an operator-table event (async slices, python frames, Kineto's trace span, filtered names)
  Cpu,   // a CPU event: ops, annotations, runtime/driver calls, overhead
  Gpu,   // a GPU event: kernels, memcpy, memset, GPU annotations, other stream events
};

// One entry per slice of the trace.
std::vector<OpEventClass> classifyOpEvents(const Trace& trace);

// A different tree from the model's Slice::parent, on purpose: it holds
// operator-table events only (GPU and skipped slices take no part), follows
// PyTorch's rule for partial overlaps (which the model spills instead) and
// moves profiler-overhead events across threads, all so that the table
// equals key_averages().
//
// PyTorch's _populate_cpu_children: per thread, events sorted by (start asc,
// end desc); a stack of open events, popping every one the next event does
// not fit into fully. So a parent contains its child entirely, and an event
// that only partly overlaps its predecessor ends that predecessor's run of
// children. GPU and skipped slices take no part.
// Kineto's profiler-overhead events (category "overhead", exported on pid -1
// without a thread) join the one thread that has an event around them, as
// PyTorch places them on the thread they interrupted.
struct CpuForest {
  std::vector<std::uint32_t> parent;  // per slice: the CPU parent or kNoIndex
  // CPU events, parents before their children (track by track).
  std::vector<std::uint32_t> preorder;
  std::vector<bool> removed;  // per slice: merged into its parent (mergeSameNameOnlyChildren)
};

CpuForest buildCpuForest(const Trace& trace, const std::vector<OpEventClass>& classes);

// The op a GPU event is attributed to: the innermost cpu_op enclosing the
// runtime/driver call that launched it (same correlation id), or kNoIndex
// when there is no such launch or op.
std::uint32_t launchingOp(const Trace& trace, const CpuForest& forest, const Slice& gpuEvent);

// PyTorch's _remove_dup_nodes, applied to the forest after GPU attribution:
// an event whose parent has the same name and no other child is removed; the
// parent takes over its children and its directly attributed device time
// (`directDevice`, per slice; PyTorch replaces the parent's kernels by the
// child's). Repeats down a chain (aten::mul > aten::mul > aten::mul keeps the
// outermost). Removed events leave `preorder` and get `removed` set.
void mergeSameNameOnlyChildren(const Trace& trace, CpuForest& forest, std::vector<TimeNs>& directDevice);

}  // namespace gapscope::analysis::ops
