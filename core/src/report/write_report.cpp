// Format names and the one entry point that renders and writes atomically.
#include "gapscope/report/report.h"
#include "report/atomic_write.h"

namespace gapscope::report {

std::optional<ReportFormat> parseReportFormat(std::string_view name) {
  if (name == "html" || name == "htm") return ReportFormat::Html;
  if (name == "md" || name == "markdown") return ReportFormat::Markdown;
  if (name == "json") return ReportFormat::Json;
  if (name == "csv") return ReportFormat::Csv;
  return std::nullopt;
}

const char* reportFormatName(ReportFormat format) {
  switch (format) {
    case ReportFormat::Html: return "html";
    case ReportFormat::Markdown: return "md";
    case ReportFormat::Json: return "json";
    case ReportFormat::Csv: return "csv";
  }
  return "html";
}

std::vector<std::string> reportFormatNames() { return {"html", "md", "json", "csv"}; }

std::string writeReport(const Report& report, ReportFormat format, const std::string& path) {
  switch (format) {
    case ReportFormat::Html: return writeFileAtomic(path, renderHtml(report));
    case ReportFormat::Markdown: return writeFileAtomic(path, renderMarkdown(report));
    case ReportFormat::Json: return writeFileAtomic(path, renderJson(report));
    case ReportFormat::Csv: return writeFolderAtomic(path, renderCsv(report));
  }
  return "unknown report format";
}

}  // namespace gapscope::report
