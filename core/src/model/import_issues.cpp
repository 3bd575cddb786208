#include "gapscope/model/import_issues.h"

#include <algorithm>

namespace gapscope {

void ImportIssues::add(ImportIssue issue) {
  for (auto& known : issues_) {
    if (known.name == issue.name) {
      known.count += issue.count;
      // The description is the first occurrence's (some name the event).
      if (issue.firstOffset < known.firstOffset) {
        known.firstOffset = issue.firstOffset;
        known.description = std::move(issue.description);
      }
      return;
    }
  }
  issues_.push_back(std::move(issue));
}

void ImportIssues::add(std::string_view name, Severity severity, std::uint64_t offset,
                       std::string_view description, std::uint64_t count) {
  add(ImportIssue{std::string(name), severity, count, offset, std::string(description), false});
}

void ImportIssues::addQuirk(std::string_view name, std::uint64_t offset, std::string_view description,
                            std::uint64_t count) {
  add(ImportIssue{std::string(name), Severity::Info, count, offset, std::string(description), true});
}

void ImportIssues::merge(const ImportIssues& other) {
  for (const auto& issue : other.issues_) add(issue);
}

std::uint64_t problemCount(const std::vector<ImportIssue>& issues) {
  std::uint64_t n = 0;
  for (const auto& issue : issues) n += issue.isProblem() ? issue.count : 0;
  return n;
}

std::uint64_t quirkCount(const std::vector<ImportIssue>& issues) {
  std::uint64_t n = 0;
  for (const auto& issue : issues) n += issue.producerQuirk ? issue.count : 0;
  return n;
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

const char* issueClassName(const ImportIssue& issue) {
  if (issue.producerQuirk) return "producer_quirk";
  return issue.isProblem() ? "problem" : "note";
}

}  // namespace gapscope
