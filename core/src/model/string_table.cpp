#include "gapscope/model/string_table.h"

#include <algorithm>
#include <cstring>

namespace gapscope {

namespace {
constexpr std::size_t kMinBlock = 64 * 1024;
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
