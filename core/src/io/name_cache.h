// Interning names fast while parsing: hashes, and a small cache in front
// of the builder's string table.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "gapscope/model/trace_builder.h"

namespace gapscope::io {

// Length and three 8-byte samples (start, middle, end): enough to tell
// names apart in a cache whose hits are verified by a full compare, and it
// does not read a 300-byte kernel name twice.
inline std::uint64_t sampleHash(std::string_view s) {
  const std::size_t n = s.size();
  if (n < 24) return hashText(s);
  std::uint64_t a, b, c;
  std::memcpy(&a, s.data(), 8);
  std::memcpy(&b, s.data() + n / 2 - 4, 8);
  std::memcpy(&c, s.data() + n - 8, 8);
  std::uint64_t h = (a ^ 0x9E3779B97F4A7C15ull * n) * 0xFF51AFD7ED558CCDull;
  h = (h ^ (h >> 32) ^ b) * 0xC4CEB9FE1A85EC53ull;
  h = (h ^ (h >> 29) ^ c) * 0xFF51AFD7ED558CCDull;
  return h ^ (h >> 32);
}

// A trace has a few thousand distinct names and millions of events: a
// small direct-mapped cache in front of the builder's string table skips
// its hash-map walk for almost every name and category.
class NameCache {
 public:
  void reset() { ++generation_; }
  StringId get(TraceBuilder& builder, std::string_view text) {
    if (text.empty()) return kEmptyString;
    const std::uint64_t h = sampleHash(text);
    Entry& e = entries_[h & (kSize - 1)];
    if (e.hash == h && e.generation == generation_ && e.size == text.size() &&
        std::memcmp(e.stored, text.data(), text.size()) == 0) {
      return e.id;
    }
    const StringId id = builder.intern(text);
    // The string table never moves what it stored: the view stays valid.
    const std::string_view stored = builder.str(id);
    e = Entry{h, stored.data(), static_cast<std::uint32_t>(stored.size()), id, generation_};
    return id;
  }

 private:
  struct Entry {
    std::uint64_t hash = 0;
    const char* stored = nullptr;
    std::uint32_t size = 0;
    StringId id = kEmptyString;
    std::uint32_t generation = 0;
  };
  static constexpr std::size_t kSize = 2048;
  std::array<Entry, kSize> entries_{};
  std::uint32_t generation_ = 1;  // entries of an older builder never match
};

// FNV-1a, for ids written as text (flow and bind ids).
inline std::uint64_t hashText(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace gapscope::io
