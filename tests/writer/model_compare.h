// Field-by-field comparison of two trace models, for round-trip tests:
// strings compare by text (ids differ between tables), args by their JSON
// text. What a file cannot carry is left out: where each event sat in its
// source (offsets), how many events the file had, the source file itself,
// and whether a slice came from an X or a B/E pair.
#pragma once

#include <string>

#include "gapscope/model/trace.h"

namespace gapscope::roundtrip {

struct CompareOptions {
  // Skip args text when the first trace had none (builder-made traces):
  // the writer then synthesises args from the model's fields.
  bool argsOnlyWhereFirstHasThem = true;
  // Import issues describe the source file; a rewrite drops what could not
  // be imported (orphan flow starts, say), so they may differ.
  bool compareIssues = true;
};

// "" when equal; otherwise the first difference, e.g.
// "slice 12 (cudaLaunchKernel): dur 4000 != 4001".
std::string compareTraces(const Trace& a, const Trace& b, const CompareOptions& options = {});

}  // namespace gapscope::roundtrip
