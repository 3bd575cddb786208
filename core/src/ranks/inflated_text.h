// A whole file's text, inflated when it is gzip (zlib reads a plain file
// as it is): the tables' CSV and a ranks document are small enough to hold.
#pragma once

#include <string>

namespace gapscope::ranks {

// Throws std::runtime_error "PATH: cannot open" or "PATH: not a readable gzip file".
std::string inflatedText(const std::string& path);

// At most `bytes` of the file's (inflated) text; "" when it cannot be read.
std::string inflatedStart(const std::string& path, unsigned bytes);

}  // namespace gapscope::ranks
