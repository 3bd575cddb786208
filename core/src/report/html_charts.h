// Internal: the HTML report's charts as inline SVG, written by hand (no
// script, no external resource). Trace strings in labels are escaped.
#pragma once

#include <string>

#include "gapscope/compare/compare.h"
#include "gapscope/report/report.h"

namespace gapscope::report {

// GPU busy share over the trace span, one lane per device, steps marked.
std::string utilizationSvg(const Report& report);
// Device gaps by length, stacked by cause, with a legend.
std::string gapHistogramSvg(const Report& report);
// One bar per run of the comparison: a mean step, split into GPU busy,
// idle by cause and the time outside the GPU window, on one scale.
std::string stepBarsSvg(const compare::Comparison& comparison);
// Each run's step times after its warm-up, by step number: a line and a
// dot per step (its number and time in the dot's title), A and B in the
// app's colours, on one time axis from 0.
std::string stepTimesSvg(const compare::Comparison& comparison);
// A plain bar chart of one distribution (launch or queue times).
std::string distributionSvg(const std::vector<DistributionBucket>& buckets, const std::string& title);

}  // namespace gapscope::report
