// Every anomaly met while importing is counted here, never dropped silently
// (after Perfetto's import stats): a name, a severity, how often, and the
// byte offset of its first occurrence in the (decompressed) source.
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
};

class ImportIssues {
 public:
  void add(std::string_view name, Severity severity, std::uint64_t offset,
           std::string_view description, std::uint64_t count = 1);
  void merge(const ImportIssues& other);
  const std::vector<ImportIssue>& all() const { return issues_; }
  const ImportIssue* find(std::string_view name) const;
  std::uint64_t count(std::string_view name) const;
  bool empty() const { return issues_.empty(); }

 private:
  std::vector<ImportIssue> issues_;
};

const char* severityName(Severity s);

}  // namespace gapscope
