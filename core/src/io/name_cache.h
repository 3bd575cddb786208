// Interning names fast while parsing: hashes, and a small cache in front
// of the builder's string table (and of pid and tid conversion).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "gapscope/model/trace_builder.h"

namespace gapscope::io {

// Length and three 8-byte samples (start, middle, end): enough to tell
// names apart in a cache whose hits are verified by a full compare, and it
// does not read a 300-byte kernel name twice. Short names ("cpu_op",
// "aten::mm", "cudaLaunchKernel") are read a word at a time too: a
// byte-at-a-time hash of them was most of the cache's cost.
inline std::uint64_t mixSamples(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::size_t n) {
  std::uint64_t h = (a ^ 0x9E3779B97F4A7C15ull * n) * 0xFF51AFD7ED558CCDull;
  h = (h ^ (h >> 32) ^ b) * 0xC4CEB9FE1A85EC53ull;
  h = (h ^ (h >> 29) ^ c) * 0xFF51AFD7ED558CCDull;
  return h ^ (h >> 32);
}

inline std::uint64_t sampleHash(std::string_view s) {
  const char* p = s.data();
  const std::size_t n = s.size();
  std::uint64_t a = 0, b = 0, c = 0;
  if (n >= 8) {  // overlapping words cover every byte up to 24
    std::memcpy(&a, p, 8);
    std::memcpy(&b, p + n / 2 - 4, 8);
    std::memcpy(&c, p + n - 8, 8);
  } else if (n >= 4) {
    std::uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + n - 4, 4);
    a = lo;
    c = hi;
  } else if (n > 0) {
    a = static_cast<unsigned char>(p[0]) | static_cast<unsigned char>(p[n / 2]) << 8 |
        static_cast<std::uint64_t>(static_cast<unsigned char>(p[n - 1])) << 16;
  }
  return mixSamples(a, b, c, n);
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

  // A pid or tid as written (`kind`: number or string) made into a ChromeId
  // by make() once, then found by its text: a thread's events and its GPU
  // stream's alternate, so the last few are kept. The texts lie in the
  // chunk being parsed, so reset() forgets them with the builder's ids.
  template <typename Make>
  ChromeId id(std::uint8_t kind, std::string_view text, Make make) {
    for (const IdEntry& e : ids_) {
      if (e.generation == generation_ && e.kind == kind && e.text == text) return e.id;
    }
    IdEntry& slot = ids_[nextId_++ % ids_.size()];
    slot = IdEntry{text, make(), kind, generation_};
    return slot.id;
  }

 private:
  struct IdEntry {
    std::string_view text;
    ChromeId id;
    std::uint8_t kind = 0;
    std::uint32_t generation = 0;
  };
  std::array<IdEntry, 8> ids_{};
  std::uint32_t nextId_ = 0;

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
