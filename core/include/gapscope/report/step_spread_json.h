// The step-time test of a comparison (compare/step_spread.h) as JSON, one
// definition for `diff` of two traces and of two runs of a job
// (docs/compare.md, "Beyond the steps' spread").
#pragma once

#include <nlohmann/json.hpp>

#include "gapscope/compare/step_spread.h"

namespace gapscope::report {

nlohmann::ordered_json stepSpreadJson(const compare::StepSpreadTest& t);

}  // namespace gapscope::report
