// Parts of JSON more than one document writes, one definition each: idle
// by cause (the comparison, the ranks document, `diff` of two runs of a
// job) and the step-time test of a comparison (compare/step_spread.h;
// docs/compare.md, "Beyond the steps' spread").
#pragma once

#include <nlohmann/json.hpp>

#include "gapscope/analysis/gaps.h"
#include "gapscope/compare/step_spread.h"

namespace gapscope::report {

// {"launch_overhead": ns, "synchronization": ns, "queued": ns, "other": ns}
nlohmann::ordered_json idleJson(const analysis::IdleByCause& idle);

nlohmann::ordered_json stepSpreadJson(const compare::StepSpreadTest& t);

}  // namespace gapscope::report
