// Every anomaly met while importing is counted here, never dropped silently
// (after Perfetto's import stats): a name, a severity, how often, and the
// byte offset of its first occurrence in the (decompressed) source.
//
// Three classes (docs/import-issues.md lists every issue):
// - problems: something was dropped, clamped, left unmatched or guessed, so
//   figures may be off (severity warning or error). Only these raise the
//   app's badge and the CLI's and reports' "problems" line.
// - notes: read as written under a stated assumption, nothing lost (info).
// - known producer quirks: what a producer (Kineto) writes into every trace
//   and gapscope understands, such as flow ends on runtime calls that launch
//   nothing. Counted and explained, shown collapsed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gapscope/model/types.h"

namespace gapscope {

struct ImportIssue {
  std::string name;         // stable identifier, e.g. "unmatched_end"
  Severity severity = Severity::Warning;
  std::uint64_t count = 0;
  std::uint64_t firstOffset = 0;  // byte offset of the first occurrence
  std::string description;  // human text, e.g. "E event without a matching B"
  bool producerQuirk = false;

  bool isProblem() const { return !producerQuirk && severity != Severity::Info; }
};

class ImportIssues {
 public:
  void add(std::string_view name, Severity severity, std::uint64_t offset,
           std::string_view description, std::uint64_t count = 1);
  // A known producer quirk (severity info): expected, explained, harmless.
  void addQuirk(std::string_view name, std::uint64_t offset, std::string_view description,
                std::uint64_t count = 1);
  void merge(const ImportIssues& other);
  const std::vector<ImportIssue>& all() const { return issues_; }
  const ImportIssue* find(std::string_view name) const;
  std::uint64_t count(std::string_view name) const;
  bool empty() const { return issues_.empty(); }

 private:
  void add(ImportIssue issue);
  std::vector<ImportIssue> issues_;
};

const char* severityName(Severity s);
// "problem", "note" or "producer_quirk": the class of an issue as outputs name it.
const char* issueClassName(const ImportIssue& issue);
// Occurrences of problems (what the app's badge and the CLI's summary count)
// and of known producer quirks.
std::uint64_t problemCount(const std::vector<ImportIssue>& issues);
std::uint64_t quirkCount(const std::vector<ImportIssue>& issues);

}  // namespace gapscope
