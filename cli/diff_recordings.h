// `gapscope-cli diff A1 A2 ... vs B1 B2 ...`: each side recorded several
// times (docs/compare.md, "Several recordings of each side"). Every
// recording is read for its step times, then each side's typical one is
// read again and the two compared in full (compare::compareRecordings).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "gapscope/analysis/trace_analysis.h"
#include "gapscope/compare/compare.h"

namespace gapscope::cli {

// diff's positional arguments: A's recordings and B's.
struct DiffSides {
  std::vector<std::string> a;
  std::vector<std::string> b;
  bool several() const { return a.size() > 1 || b.size() > 1; }
};

// Splits the arguments at the word "vs" ("A B" without it is one
// recording a side). Writes what is wrong to `err` and returns nullopt for
// anything else: no "vs" and not two, "vs" twice, a side left empty, one
// file given twice among several recordings.
std::optional<DiffSides> diffSides(const std::vector<std::string>& words, std::ostream& err);

// The comparison of the sides' typical recordings with every recording's
// step times tested; nullopt (the reader's message in `err`, naming the
// side and the file) when a recording cannot be read.
std::optional<compare::Comparison> compareRecordedSides(const DiffSides& sides,
                                                        const analysis::AnalysisOptions& options,
                                                        const compare::CompareOptions& compareOptions,
                                                        std::ostream& err);

}  // namespace gapscope::cli
