#include "gapscope/analysis/collectives.h"

#include <algorithm>
#include <cctype>

namespace gapscope::analysis {
namespace {

bool containsNoCase(std::string_view text, std::string_view word) {
  auto it = std::search(text.begin(), text.end(), word.begin(), word.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  });
  return it != text.end();
}

}  // namespace

bool isCollectiveName(std::string_view name) {
  return containsNoCase(name, "nccl") || containsNoCase(name, "gloo");
}

}  // namespace gapscope::analysis
