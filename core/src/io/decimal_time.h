// Exact conversion of JSON number text to integers, never through double.
// Kineto writes "ts": 4472700411709.539 (microseconds with 16+ significant
// digits); a double keeps only ~15.9, so the text is read digit by digit.
#pragma once

#include <cstdint>
#include <string_view>

#include "gapscope/model/types.h"

namespace gapscope::io {

// Parses JSON number text in microseconds (integer, decimal or exponent
// form, optional leading '-') into nanoseconds. Digits beyond the
// nanosecond are rounded half away from zero. Surrounding whitespace is
// ignored. Returns false for anything that is not a number or does not fit
// an int64.
bool parseMicrosAsNanos(std::string_view text, TimeNs* out);

// Parses JSON number text that must be an integer (no fraction, no
// exponent) into an int64. Surrounding whitespace is ignored.
bool parseInt64(std::string_view text, std::int64_t* out);

// Parses an id written as a JSON number or inside a string: decimal, or
// hexadecimal with "0x"; negative decimals wrap to uint64. False otherwise.
bool parseUnsignedId(std::string_view text, std::uint64_t* out);

}  // namespace gapscope::io
