// Sort keys of the kernel table (--sort of `gapscope-cli kernels`).
#include <algorithm>
#include <string>

#include "gapscope/analysis/kernel_table.h"

namespace gapscope::analysis {
namespace {

struct KernelSortKeyName {
  std::string_view name;
  KernelSortKey key;
};

// Canonical names first, then the JSON field names as aliases.
constexpr KernelSortKeyName kKernelSortKeys[] = {
    {"total", KernelSortKey::Total}, {"calls", KernelSortKey::Calls},   {"avg", KernelSortKey::Avg},
    {"min", KernelSortKey::Min},     {"max", KernelSortKey::Max},       {"std", KernelSortKey::StdDev},
    {"name", KernelSortKey::Name},   {"total_us", KernelSortKey::Total}, {"pct_gpu", KernelSortKey::Total},
    {"avg_us", KernelSortKey::Avg},  {"min_us", KernelSortKey::Min},    {"max_us", KernelSortKey::Max},
    {"std_us", KernelSortKey::StdDev},
};
constexpr std::size_t kCanonicalKernelKeys = 7;

double sortValue(const KernelRow& r, KernelSortKey key) {
  switch (key) {
    case KernelSortKey::Calls: return static_cast<double>(r.calls);
    case KernelSortKey::Total: return static_cast<double>(r.total);
    case KernelSortKey::Avg: return static_cast<double>(r.avg());
    case KernelSortKey::Min: return static_cast<double>(r.min);
    case KernelSortKey::Max: return static_cast<double>(r.max);
    case KernelSortKey::StdDev: return r.stdDevNs;
    case KernelSortKey::Name: return 0;
  }
  return 0;
}

bool tieOrder(const KernelRow& a, const KernelRow& b) {
  if (a.total != b.total) return a.total > b.total;
  if (a.name != b.name) return a.name < b.name;
  return a.kind < b.kind;
}

}  // namespace

std::optional<KernelSortKey> parseKernelSortKey(std::string_view key) {
  for (const auto& k : kKernelSortKeys) {
    if (k.name == key) return k.key;
  }
  return std::nullopt;
}

std::vector<std::string> kernelSortKeyNames() {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < kCanonicalKernelKeys; ++i) names.emplace_back(kKernelSortKeys[i].name);
  return names;
}

void sortKernelRows(std::vector<KernelRow>& rows, KernelSortKey key) {
  std::sort(rows.begin(), rows.end(), [key](const KernelRow& a, const KernelRow& b) {
    if (key == KernelSortKey::Name) {
      if (a.name != b.name) return a.name < b.name;
      return tieOrder(a, b);
    }
    double va = sortValue(a, key);
    double vb = sortValue(b, key);
    if (va != vb) return va > vb;
    return tieOrder(a, b);
  });
}

}  // namespace gapscope::analysis
