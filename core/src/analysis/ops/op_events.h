// Which slices take part in the operator table, and PyTorch's CPU nesting.
// Private to the ops analysis.
#pragma once

#include <cstdint>
#include <vector>

#include "gapscope/model/trace.h"

namespace gapscope::analysis::ops {

enum class OpEventClass : std::uint8_t {
  Skip,  // not an operator-table event (async slices, Kineto's trace span, filtered names)
  Cpu,   // a CPU event: ops, annotations, python functions, runtime/driver calls, overhead
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
};

CpuForest buildCpuForest(const Trace& trace, const std::vector<OpEventClass>& classes);

// The op a GPU event is attributed to: the innermost cpu_op or user_annotation
// enclosing the runtime/driver call that launched it (same correlation id),
// or kNoIndex when there is no such launch or op.
std::uint32_t launchingOp(const Trace& trace, const CpuForest& forest, const Slice& gpuEvent);

}  // namespace gapscope::analysis::ops
