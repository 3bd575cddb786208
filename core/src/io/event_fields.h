// What the reader takes out of one event before turning it into model
// events: views into the parser's buffers, valid while the chunk is parsed.
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "gapscope/model/trace.h"

namespace gapscope::io {

struct Scalar {
  enum class Kind : std::uint8_t { None, Number, String, Other };
  Kind kind = Kind::None;
  std::string_view text;  // number: its token; string: unescaped
};

struct ArgsFields {
  const char* begin = nullptr;
  const char* end = nullptr;
  std::int64_t correlation = kNoCorrelation;
  std::string_view inputDims;
  KernelInfo kernel;
  bool hasKernel = false;
  std::string_view metaName;
  bool hasMetaName = false;
  std::string_view labels;
  bool hasLabels = false;
  std::int64_t sortIndex = 0;
  bool hasSortIndex = false;
};

// Top-level numeric members of an event's args (raw key, token): the values
// of a C event. Kept beside EventFields, not in it: that stays trivially
// copyable, so resetting it for each event copies a constant. (Resetting it
// with a vector inside built a temporary on the stack and read it back in
// 16-byte loads over 8-byte stores, which stall; docs/reader.md.)
using ArgNumbers = std::vector<std::pair<const char*, std::string_view>>;

struct EventFields {
  std::uint64_t offset = 0;
  char ph = 0;
  bool hasPh = false;
  bool phSingleChar = false;
  std::string_view name;
  std::string_view cat;
  Scalar ts;
  Scalar dur;
  Scalar pid;
  Scalar tid;
  Scalar id;
  Scalar id2;
  bool id2Local = false;
  Scalar bindId;
  char scope = 't';
  bool bpEnclosing = false;
  bool flowIn = false;
  bool flowOut = false;
  bool hasArgs = false;
  bool argsNotObject = false;
  ArgsFields args;
};
static_assert(std::is_trivially_copyable_v<EventFields>);

}  // namespace gapscope::io
