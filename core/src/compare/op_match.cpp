// Operator rows of two runs side by side: the CPU rows of each run's
// operator table (ops, annotations, runtime calls; kernels are compared as
// kernels), matched by (name, annotation or not, input shapes when the
// tables were grouped by shapes), largest change per step first.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "compare/compare_detail.h"

namespace gapscope::compare::detail {
namespace {

using Key = std::tuple<std::string, bool, std::string>;  // name, annotation, shapes

// How much a row changed per step: the larger of its self-CPU and its device-time change.
double changeOf(const Comparison& c, const OpDelta& d) {
  return std::max(std::abs(c.changePerStep(d.selfCpuA, d.selfCpuB)), std::abs(c.changePerStep(d.deviceA, d.deviceB)));
}

}  // namespace

void matchOps(const analysis::OpTable& a, const analysis::OpTable& b, Comparison& out) {
  std::map<Key, OpDelta> rows;
  auto rowFor = [&](const analysis::OpRow& r) -> OpDelta& {
    OpDelta& d = rows[Key{r.name, r.annotation, r.inputShapes}];
    d.name = r.name;
    d.annotation = r.annotation;
    d.inputShapes = r.inputShapes;
    return d;
  };
  auto addRun = [&](const analysis::OpTable& table, bool runB) {
    for (const analysis::OpRow& r : table.rows) {
      if (r.device != analysis::OpDevice::Cpu) continue;
      OpDelta& d = rowFor(r);
      (runB ? d.callsB : d.callsA) = r.calls;
      (runB ? d.selfCpuB : d.selfCpuA) = r.selfCpu;
      (runB ? d.deviceB : d.deviceA) = r.deviceTotal;
    }
  };
  addRun(a, false);
  addRun(b, true);
  out.ops.reserve(rows.size());
  for (auto& [key, d] : rows) out.ops.push_back(std::move(d));
  std::stable_sort(out.ops.begin(), out.ops.end(), [&](const OpDelta& x, const OpDelta& y) {
    return changeOf(out, x) > changeOf(out, y);
  });
}

}  // namespace gapscope::compare::detail
