#include "gapscope/io/recording_issues.h"

#include <nlohmann/json.hpp>

namespace gapscope::io {

std::string recordingIssuesJson(const std::vector<ImportIssue>& issues) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& issue : issues) {
    list.push_back({{"name", issue.name},
                    {"severity", severityName(issue.severity)},
                    {"count", issue.count},
                    {"description", issue.description}});
  }
  return list.dump();
}

namespace {

bool severityNamed(const std::string& name, Severity* out) {
  for (Severity s : {Severity::Info, Severity::Warning, Severity::Error}) {
    if (name == severityName(s)) {
      *out = s;
      return true;
    }
  }
  return false;
}

}  // namespace

bool parseRecordingIssues(std::string_view json, std::vector<ImportIssue>* out) {
  nlohmann::json list = nlohmann::json::parse(json, nullptr, false);
  if (!list.is_array()) return false;
  std::vector<ImportIssue> parsed;
  for (const auto& item : list) {
    if (!item.is_object()) return false;
    const auto name = item.find("name");
    const auto severity = item.find("severity");
    const auto count = item.find("count");
    const auto description = item.find("description");
    if (name == item.end() || !name->is_string() || name->get_ref<const std::string&>().empty()) return false;
    if (severity == item.end() || !severity->is_string()) return false;
    if (count == item.end() || !count->is_number_unsigned()) return false;
    if (description == item.end() || !description->is_string()) return false;
    ImportIssue issue;
    if (!severityNamed(severity->get<std::string>(), &issue.severity)) return false;
    issue.name = name->get<std::string>();
    issue.count = count->get<std::uint64_t>();
    issue.description = description->get<std::string>();
    parsed.push_back(std::move(issue));
  }
  out->insert(out->end(), parsed.begin(), parsed.end());
  return true;
}

}  // namespace gapscope::io
