#include "gapscope/model/import_issues.h"

#include <algorithm>

namespace gapscope {

void ImportIssues::add(std::string_view name, Severity severity, std::uint64_t offset,
                       std::string_view description, std::uint64_t count) {
  for (auto& issue : issues_) {
    if (issue.name == name) {
      issue.count += count;
      // The description is the first occurrence's (some name the event).
      if (offset < issue.firstOffset) {
        issue.firstOffset = offset;
        issue.description = description;
      }
      return;
    }
  }
  issues_.push_back({std::string(name), severity, count, offset, std::string(description)});
}

void ImportIssues::merge(const ImportIssues& other) {
  for (const auto& issue : other.issues_) {
    add(issue.name, issue.severity, issue.firstOffset, issue.description, issue.count);
  }
}

const ImportIssue* ImportIssues::find(std::string_view name) const {
  for (const auto& issue : issues_) {
    if (issue.name == name) return &issue;
  }
  return nullptr;
}

std::uint64_t ImportIssues::count(std::string_view name) const {
  const ImportIssue* issue = find(name);
  return issue ? issue->count : 0;
}

const char* severityName(Severity s) {
  switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "unknown";
}

}  // namespace gapscope
