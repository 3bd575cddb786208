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

bool isCollectiveCall(std::string_view name) {
  if (name.size() > 4 && name.substr(0, 4) == "nccl" && std::isupper(static_cast<unsigned char>(name[4]))) return true;
  for (std::string_view backend : {"nccl:", "gloo:", "ucc:", "mpi:"}) {
    if (name.substr(0, backend.size()) == backend) return true;
  }
  return false;
}

}  // namespace gapscope::analysis
