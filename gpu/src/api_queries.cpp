#include "gapscope/gpu/api_queries.h"

namespace gapscope::gpu {

namespace {

bool isUpper(char c) { return c >= 'A' && c <= 'Z'; }

// The CamelCase word of `rest` that starts at `i`.
std::string_view wordAt(std::string_view rest, std::size_t i) {
  std::size_t end = i + 1;
  while (end < rest.size() && !isUpper(rest[end]) && rest[end] != '_') ++end;
  return rest.substr(i, end - i);
}

}  // namespace

bool isApiQuery(std::string_view name) {
  std::string_view rest;
  if (name.substr(0, 4) == "cuda") rest = name.substr(4);
  else if (name.substr(0, 2) == "cu") rest = name.substr(2);
  else return false;
  if (rest.substr(0, rest.find('_')).empty()) return false;
  rest = rest.substr(0, rest.find('_'));  // the version suffix says nothing here
  if (rest == "PeekAtLastError" || rest == "CtxSetCurrent" || rest == "CtxPushCurrent" || rest == "CtxPopCurrent")
    return true;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    if (!isUpper(rest[i])) continue;
    std::string_view w = wordAt(rest, i);
    if (w == "Get" || w == "Is") return true;
  }
  return false;
}

}  // namespace gapscope::gpu
