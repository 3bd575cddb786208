#include "gapscope/model/string_table.h"

#include <algorithm>
#include <cstring>

namespace gapscope {

namespace {
constexpr std::size_t kMinBlock = 64 * 1024;
}

std::size_t StringTable::Hash::operator()(std::string_view s) const noexcept {
  // Eight bytes per step: every event's name is hashed while loading, and
  // kernel names run to hundreds of bytes (byte-wise FNV-1a cost ~6% of a
  // load).
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
  h ^= h >> 29;
  return static_cast<std::size_t>(h);
}

StringTable::StringTable() {
  views_.emplace_back();
  index_.emplace(std::string_view(), kEmptyString);
}

std::string_view StringTable::store(std::string_view text) {
  if (text.size() > blockSize_ - blockUsed_) {
    blockSize_ = std::max(kMinBlock, text.size());
    blocks_.emplace_back(new char[blockSize_]);
    blockUsed_ = 0;
  }
  char* dst = blocks_.back().get() + blockUsed_;
  std::memcpy(dst, text.data(), text.size());
  blockUsed_ += text.size();
  return {dst, text.size()};
}

StringId StringTable::intern(std::string_view text) {
  auto it = index_.find(text);
  if (it != index_.end()) return it->second;
  std::string_view stored = store(text);
  auto id = static_cast<StringId>(views_.size());
  views_.push_back(stored);
  index_.emplace(stored, id);
  return id;
}

bool StringTable::find(std::string_view text, StringId* id) const {
  auto it = index_.find(text);
  if (it == index_.end()) return false;
  *id = it->second;
  return true;
}

std::size_t StringTable::memoryBytes() const {
  std::size_t bytes = blocks_.size() * blockSize_;
  bytes += views_.capacity() * sizeof(std::string_view);
  bytes += index_.size() * (sizeof(std::string_view) + sizeof(StringId) + 2 * sizeof(void*));
  return bytes;
}

}  // namespace gapscope
