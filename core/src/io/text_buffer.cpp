#include "text_buffer.h"

#include <simdjson.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <utility>

namespace gapscope::io {

namespace {
constexpr std::size_t kPadding = simdjson::SIMDJSON_PADDING;
// Bytes after the text: a ']' and the padding.
constexpr std::size_t kTail = 1 + kPadding;
}  // namespace

TextBuffer::TextBuffer(std::size_t textCapacity)
    : data_(new char[1 + textCapacity + kTail]), textCapacity_(textCapacity), allocated_(1 + textCapacity + kTail) {
  data_[0] = '[';
}

TextBuffer TextBuffer::mapFile(int fd, std::uint64_t fileSize, std::uint64_t textBegin, std::size_t textLength) {
  TextBuffer b;
  static const std::uint64_t page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  if (textBegin == 0 || textBegin + textLength > fileSize) return b;
  const std::uint64_t first = textBegin - 1;  // the '[' slot
  const std::uint64_t mapStart = first / page * page;
  const std::uint64_t end = textBegin + textLength + kTail;
  // Past the file's last page a mapping faults (SIGBUS): read instead.
  const std::uint64_t fileEndPage = (fileSize + page - 1) / page * page;
  if (end > fileEndPage) return b;
  const std::size_t length = static_cast<std::size_t>(end - mapStart);
  // Populate read-only (a writable private mapping would copy every page
  // while populating), then allow writes: only the pages of the two
  // brackets get copied.
  void* base = ::mmap(nullptr, length, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, static_cast<off_t>(mapStart));
  if (base == MAP_FAILED) return b;
  if (::mprotect(base, length, PROT_READ | PROT_WRITE) != 0) {
    ::munmap(base, length);
    return b;
  }
  b.mapBase_ = base;
  b.mapLength_ = length;
  b.data_ = static_cast<char*>(base) + (first - mapStart);
  b.data_[0] = '[';
  b.textCapacity_ = textLength;
  b.allocated_ = static_cast<std::size_t>(end - first);
  return b;
}

TextBuffer::TextBuffer(TextBuffer&& other) noexcept { *this = std::move(other); }

TextBuffer& TextBuffer::operator=(TextBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    textCapacity_ = std::exchange(other.textCapacity_, 0);
    allocated_ = std::exchange(other.allocated_, 0);
    mapBase_ = std::exchange(other.mapBase_, nullptr);
    mapLength_ = std::exchange(other.mapLength_, 0);
  }
  return *this;
}

TextBuffer::~TextBuffer() { release(); }

void TextBuffer::release() {
  if (mapBase_) ::munmap(mapBase_, mapLength_);
  else delete[] data_;
  data_ = nullptr;
  mapBase_ = nullptr;
}

void TextBuffer::grow(std::size_t newCapacity, std::size_t used) {
  TextBuffer bigger(newCapacity);
  std::memcpy(bigger.text(), text(), used);
  *this = std::move(bigger);
}

TextBuffer bufferHolding(std::string_view text) {
  TextBuffer b(text.size());
  std::memcpy(b.text(), text.data(), text.size());
  return b;
}

}  // namespace gapscope::io
