// Sort keys of the operator table (--sort of `gapscope-cli ops`).
#include <algorithm>
#include <string>
#include <utility>

#include "gapscope/analysis/ops_table.h"

namespace gapscope::analysis {
namespace {

struct OpSortKeyName {
  std::string_view name;
  OpSortKey key;
};

// Canonical names first (one per key), then aliases: JSON field names and
// PyTorch's sort_by keys.
constexpr OpSortKeyName kOpSortKeys[] = {
    {"device_total", OpSortKey::DeviceTotal},
    {"self_device", OpSortKey::SelfDevice},
    {"cpu_total", OpSortKey::CpuTotal},
    {"self_cpu", OpSortKey::SelfCpu},
    {"device_avg", OpSortKey::DeviceAvg},
    {"cpu_avg", OpSortKey::CpuAvg},
    {"calls", OpSortKey::Calls},
    {"name", OpSortKey::Name},
    {"device_total_us", OpSortKey::DeviceTotal},
    {"cuda_total", OpSortKey::DeviceTotal},
    {"cuda_time_total", OpSortKey::DeviceTotal},
    {"device_time_total", OpSortKey::DeviceTotal},
    {"self_device_us", OpSortKey::SelfDevice},
    {"self_cuda", OpSortKey::SelfDevice},
    {"self_cuda_time_total", OpSortKey::SelfDevice},
    {"self_device_time_total", OpSortKey::SelfDevice},
    {"cpu_total_us", OpSortKey::CpuTotal},
    {"cpu_time_total", OpSortKey::CpuTotal},
    {"self_cpu_us", OpSortKey::SelfCpu},
    {"self_cpu_time_total", OpSortKey::SelfCpu},
    {"cuda_time", OpSortKey::DeviceAvg},
    {"device_time", OpSortKey::DeviceAvg},
    {"cpu_time", OpSortKey::CpuAvg},
    {"count", OpSortKey::Calls},
};
constexpr std::size_t kCanonicalOpKeys = 8;

TimeNs sortValue(const OpRow& r, OpSortKey key) {
  switch (key) {
    case OpSortKey::Calls: return r.calls;
    case OpSortKey::SelfCpu: return r.selfCpu;
    case OpSortKey::CpuTotal: return r.cpuTotal;
    case OpSortKey::SelfDevice: return r.selfDevice;
    case OpSortKey::DeviceTotal: return r.deviceTotal;
    case OpSortKey::CpuAvg: return r.cpuAvg();
    case OpSortKey::DeviceAvg: return r.deviceAvg();
    case OpSortKey::Name: return 0;
  }
  return 0;
}

// The order used for ties and by the default sort: device time, then CPU
// time, then name and device, so output never depends on hashing.
bool tieOrder(const OpRow& a, const OpRow& b) {
  if (a.deviceTotal != b.deviceTotal) return a.deviceTotal > b.deviceTotal;
  if (a.cpuTotal != b.cpuTotal) return a.cpuTotal > b.cpuTotal;
  if (a.name != b.name) return a.name < b.name;
  if (a.device != b.device) return a.device < b.device;
  if (a.annotation != b.annotation) return a.annotation < b.annotation;
  return a.inputShapes < b.inputShapes;
}

}  // namespace

std::optional<OpSortKey> parseOpSortKey(std::string_view key) {
  for (const auto& k : kOpSortKeys) {
    if (k.name == key) return k.key;
  }
  return std::nullopt;
}

std::vector<std::string> opSortKeyNames() {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < kCanonicalOpKeys; ++i) names.emplace_back(kOpSortKeys[i].name);
  return names;
}

void sortOpRows(std::vector<OpRow>& rows, OpSortKey key) {
  std::sort(rows.begin(), rows.end(), [key](const OpRow& a, const OpRow& b) {
    if (key == OpSortKey::Name) {
      if (a.name != b.name) return a.name < b.name;
      return tieOrder(a, b);
    }
    TimeNs va = sortValue(a, key);
    TimeNs vb = sortValue(b, key);
    if (va != vb) return va > vb;
    return tieOrder(a, b);
  });
}

}  // namespace gapscope::analysis
