// What a recorder knows about its own recording (a process that ended
// before its final flush, records dropped under pressure, a recording
// stopped before the program ended) travels in the trace file as the
// top-level member "gapscope_recording_issues": an array of
// {"name", "severity", "count", "description"}. The reader turns it back into
// import issues, so a recording says what went wrong whenever it is opened.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gapscope/model/import_issues.h"

namespace gapscope::io {

inline constexpr std::string_view kRecordingIssuesKey = "gapscope_recording_issues";

// The member's JSON value for `issues`.
std::string recordingIssuesJson(const std::vector<ImportIssue>& issues);

// The member's value back as issues; false (and nothing added) when it is
// not an array of such objects.
bool parseRecordingIssues(std::string_view json, std::vector<ImportIssue>* out);

}  // namespace gapscope::io
