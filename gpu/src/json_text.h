// Small helpers for writing args JSON text by hand (the converter emits the
// same args objects Kineto writes; the text is kept verbatim in an arena).
#pragma once

#include <charconv>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "gapscope/model/trace.h"

namespace gapscope::gpu::detail {

inline void appendJsonString(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      static const char* hex = "0123456789abcdef";
      out += "\\u00";
      out += hex[u >> 4];
      out += hex[u & 15];
    } else {
      out += c;
    }
  }
  out += '"';
}

inline void appendInt(std::string& out, std::int64_t v) { out += std::to_string(v); }

// Shortest text that reads back as the same double.
inline void appendDouble(std::string& out, double v) {
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, res.ptr);
}

// Args text of generated slices, fetched through ArgsRef offsets.
class ArgsArena final : public ArgsSource {
 public:
  ArgsRef add(std::string_view json) {
    ArgsRef ref{text_.size(), static_cast<std::uint32_t>(json.size())};
    text_.append(json);
    return ref;
  }
  std::string fetch(const ArgsRef& ref) const override {
    if (ref.length == 0 || ref.offset + ref.length > text_.size()) return {};
    return text_.substr(ref.offset, ref.length);
  }
  std::size_t bytes() const { return text_.size(); }

 private:
  std::string text_;
};

}  // namespace gapscope::gpu::detail
