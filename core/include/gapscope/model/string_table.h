// Interned strings: every name and category is stored once and referred to
// by a 32-bit id. Views stay valid for the table's lifetime (storage is in
// fixed blocks that never move).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gapscope/model/types.h"

namespace gapscope {

// The hash of event names and other trace text, eight bytes per step: every
// event's name is hashed while loading, and kernel names run to hundreds of
// bytes (byte-wise FNV-1a cost ~6% of a load).
inline std::uint64_t hashText(std::string_view s) {
  const char* p = s.data();
  std::size_t n = s.size();
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  while (n >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
    p += 8;
    n -= 8;
  }
  std::uint64_t w = 0;
  if (n) std::memcpy(&w, p, n);  // an empty view may have a null pointer
  h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
  return h ^ (h >> 29);
}

class StringTable {
 public:
  StringTable();
  StringTable(StringTable&&) noexcept = default;
  StringTable& operator=(StringTable&&) noexcept = default;

  StringId intern(std::string_view text);
  // Returns kNoIndex-like sentinel (size()) when absent; does not insert.
  bool find(std::string_view text, StringId* id) const;
  std::string_view view(StringId id) const { return views_[id]; }
  std::size_t size() const { return views_.size(); }
  std::size_t memoryBytes() const;

 private:
  std::string_view store(std::string_view text);

  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return static_cast<std::size_t>(hashText(s)); }
  };
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t blockUsed_ = 0;
  std::size_t blockSize_ = 0;
  std::vector<std::string_view> views_;
  std::unordered_map<std::string_view, StringId, Hash, std::equal_to<>> index_;
};

}  // namespace gapscope
