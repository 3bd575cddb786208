// Text laid out for the fast parser: data()[0] is a slot for the '[' that
// makes a chunk of events an array, the text follows, then room for a
// closing ']' and simdjson's padding (SIMDJSON_PADDING readable bytes).
//
// Either heap memory, or (plain files) a private copy-on-write mapping of
// the file itself: no copy of the text, and writing the two brackets
// copies only the pages they fall on. Each chunk maps its own view, so the
// ']' of one chunk and the '[' of the next never collide.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gapscope::io {

class TextBuffer {
 public:
  TextBuffer() = default;
  // Heap memory for up to `textCapacity` bytes of text.
  explicit TextBuffer(std::size_t textCapacity);
  // Maps file bytes [textBegin, textBegin + textLength) of `fd` (textBegin
  // >= 1). Fails (empty buffer) when the padding would run past the last
  // page of the file, or mmap is refused: the caller then reads instead.
  static TextBuffer mapFile(int fd, std::uint64_t fileSize, std::uint64_t textBegin, std::size_t textLength);

  TextBuffer(TextBuffer&& other) noexcept;
  TextBuffer& operator=(TextBuffer&& other) noexcept;
  TextBuffer(const TextBuffer&) = delete;
  TextBuffer& operator=(const TextBuffer&) = delete;
  ~TextBuffer();

  explicit operator bool() const { return data_ != nullptr; }
  bool mapped() const { return mapBase_ != nullptr; }
  char* data() { return data_; }
  const char* data() const { return data_; }
  char* text() { return data_ + 1; }
  std::size_t textCapacity() const { return textCapacity_; }
  // Readable bytes from data(), for simdjson's padded view.
  std::size_t allocated() const { return allocated_; }
  // Heap buffers only: a bigger buffer keeping the first `used` text bytes.
  void grow(std::size_t newCapacity, std::size_t used);

 private:
  void release();

  char* data_ = nullptr;
  std::size_t textCapacity_ = 0;
  std::size_t allocated_ = 0;
  void* mapBase_ = nullptr;  // set for mappings
  std::size_t mapLength_ = 0;
};

TextBuffer bufferHolding(std::string_view text);

}  // namespace gapscope::io
