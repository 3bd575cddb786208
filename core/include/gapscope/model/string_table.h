// Interned strings: every name and category is stored once and referred to
// by a 32-bit id. Views stay valid for the table's lifetime (storage is in
// fixed blocks that never move).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gapscope/model/types.h"

namespace gapscope {

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
    std::size_t operator()(std::string_view s) const noexcept;
  };
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t blockUsed_ = 0;
  std::size_t blockSize_ = 0;
  std::vector<std::string_view> views_;
  std::unordered_map<std::string_view, StringId, Hash, std::equal_to<>> index_;
};

}  // namespace gapscope
