// gapscope-cli ops: the operator table (PyTorch's key_averages()).
#include <ostream>
#include <stdexcept>

#include "command.h"
#include "gapscope/analysis/ops_table.h"
#include "load_trace.h"
#include "output.h"

namespace gapscope::cli {
namespace {

using analysis::OpRow;
using analysis::OpTable;

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const auto& w : words) text += (text.empty() ? "" : ", ") + w;
  return text;
}

analysis::OpSortKey opSortOption(const Args& args) {
  const std::string key = args.get("sort", "device_total");
  if (auto parsed = analysis::parseOpSortKey(key)) return *parsed;
  throw std::invalid_argument("unknown --sort key '" + key + "' (one of: " +
                              joined(analysis::opSortKeyNames()) + ")");
}

// Column layout and headers of PyTorch's key_averages().table().
void printText(std::ostream& out, const OpTable& table, const std::vector<OpRow>& rows, bool shapes) {
  using Align = TextTable::Align;
  TextTable text;
  text.addColumn("Name", Align::Right, 55);  // PyTorch cuts names at 55 characters too
  for (const char* h : {"Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "Self CUDA",
                        "Self CUDA %", "CUDA total", "CUDA time avg", "# of Calls"}) {
    text.addColumn(h);
  }
  if (shapes) text.addColumn("Input Shapes", Align::Left);
  for (const OpRow& r : rows) {
    std::vector<std::string> cells = {
        r.name,
        format::formatPercent(table.selfCpuPct(r), kTablePercent),
        format::formatDuration(r.selfCpu, kTableTime),
        format::formatPercent(table.cpuTotalPct(r), kTablePercent),
        format::formatDuration(r.cpuTotal, kTableTime),
        format::formatDuration(r.cpuAvg(), kTableTime),
        format::formatDuration(r.selfDevice, kTableTime),
        format::formatPercent(table.selfDevicePct(r), kTablePercent),
        format::formatDuration(r.deviceTotal, kTableTime),
        format::formatDuration(r.deviceAvg(), kTableTime),
        std::to_string(r.calls),
    };
    if (shapes) cells.push_back(r.inputShapes.empty() ? "[]" : r.inputShapes);
    text.addRow(std::move(cells));
  }
  text.print(out);
  out << "Self CPU time total: " << format::formatDuration(table.selfCpuTotal, kTableTime) << '\n'
      << "Self CUDA time total: " << format::formatDuration(table.selfDeviceTotal, kTableTime) << '\n';
}

void printJson(std::ostream& out, const std::vector<OpRow>& rows, bool shapes) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const OpRow& r : rows) {
    nlohmann::ordered_json row;
    row["name"] = r.name;
    row["device"] = analysis::opDeviceName(r.device);
    row["calls"] = r.calls;
    row["self_cpu_us"] = format::usNumber(r.selfCpu);
    row["cpu_total_us"] = format::usNumber(r.cpuTotal);
    row["self_device_us"] = format::usNumber(r.selfDevice);
    row["device_total_us"] = format::usNumber(r.deviceTotal);
    if (shapes) row["input_shapes"] = r.inputShapes;
    list.push_back(std::move(row));
  }
  writeJson(out, list);
}

void printCsv(std::ostream& out, const std::vector<OpRow>& rows, bool shapes) {
  std::vector<std::string> header = {"name",        "device",         "calls",          "self_cpu_us",
                                     "cpu_total_us", "self_device_us", "device_total_us"};
  if (shapes) header.push_back("input_shapes");
  writeCsvRow(out, header);
  for (const OpRow& r : rows) {
    std::vector<std::string> fields = {r.name,
                                       analysis::opDeviceName(r.device),
                                       std::to_string(r.calls),
                                       format::exactUs(r.selfCpu),
                                       format::exactUs(r.cpuTotal),
                                       format::exactUs(r.selfDevice),
                                       format::exactUs(r.deviceTotal)};
    if (shapes) fields.push_back(r.inputShapes);
    writeCsvRow(out, fields);
  }
}

int runOps(const Args& args, std::ostream& out, std::ostream& err) {
  const OutputFormat format = formatOption(args);
  const analysis::OpSortKey sortKey = opSortOption(args);
  const bool shapes = args.has("group-by-shapes");
  auto path = tracePathArgument(args, "ops", err);
  if (!path) return 2;
  auto trace = loadTraceForCommand(*path, "ops", err);
  if (!trace) return 1;

  analysis::OpTableOptions tableOptions;
  tableOptions.groupByShapes = shapes;
  const OpTable table = analysis::buildOpTable(*trace, tableOptions);
  std::vector<OpRow> rows = table.rows;
  analysis::sortOpRows(rows, sortKey);
  applyLimit(rows, args);
  switch (format) {
    case OutputFormat::Text: printText(out, table, rows, shapes); break;
    case OutputFormat::Json: printJson(out, rows, shapes); break;
    case OutputFormat::Csv: printCsv(out, rows, shapes); break;
  }
  return 0;
}

}  // namespace

GAPSCOPE_CLI_COMMAND("ops",
                     "ops TRACE [--format text|json|csv] [--sort KEY] [--limit N] [--group-by-shapes]",
                     "operator table: PyTorch's key_averages() per op name and device (sort keys: "
                     "device_total, self_device, cpu_total, self_cpu, device_avg, cpu_avg, calls, name)",
                     {"group-by-shapes"}, runOps);

}  // namespace gapscope::cli
