// Atomic file and folder writes: the content goes to a temporary in the
// target's own folder (same file system, so rename(2) is atomic), which is
// renamed over the target only when everything was written and flushed. On
// any failure the temporary is removed and the target is left as it was.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gapscope::report {

struct AtomicWriteOptions {
  // Test seam: pretend the disk fails once this many bytes are written
  // (-1: never). There is no portable way to make a real write fail midway.
  std::int64_t failAfterBytes = -1;
};

// Returns "" on success, else one line naming the path and the reason.
std::string writeFileAtomic(const std::string& path, std::string_view content,
                            const AtomicWriteOptions& options = {});

// Writes `files` (name, content) into a new folder and renames it to
// `path`. An existing folder at `path` is replaced only when it holds
// nothing but regular *.csv files (a previous report); anything else is
// refused, so a mistyped -o can never delete a user's folder.
std::string writeFolderAtomic(const std::string& path,
                              const std::vector<std::pair<std::string, std::string>>& files,
                              const AtomicWriteOptions& options = {});

}  // namespace gapscope::report
