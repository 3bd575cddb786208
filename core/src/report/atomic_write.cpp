#include "report/atomic_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace gapscope::report {
namespace fs = std::filesystem;
namespace {

std::string errnoText(int err) { return std::strerror(err); }

fs::path parentOf(const fs::path& path) {
  fs::path parent = path.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

// "/dir/report.html" -> "/dir/.report.html.tmp-XXXXXX" (mkstemp/mkdtemp template).
std::string tempTemplate(const fs::path& target, const char* what) {
  return (parentOf(target) / ("." + target.filename().string() + "." + what + "-XXXXXX")).string();
}

mode_t currentUmask() {
  mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

// Writes all of `content` to `fd`, honouring the failure seam. Returns errno or 0.
int writeAll(int fd, std::string_view content, std::int64_t* budget) {
  std::size_t done = 0;
  while (done < content.size()) {
    std::size_t chunk = std::min<std::size_t>(content.size() - done, 1 << 16);
    if (*budget >= 0) {
      if (*budget == 0) return ENOSPC;
      chunk = std::min<std::size_t>(chunk, static_cast<std::size_t>(*budget));
    }
    ssize_t n = ::write(fd, content.data() + done, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    done += static_cast<std::size_t>(n);
    if (*budget >= 0) *budget -= n;
  }
  return 0;
}

// Writes a new file at exactly `path` (created with mode 0666 & ~umask).
std::string writeNewFile(const std::string& path, std::string_view content, std::int64_t* budget) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) return "cannot create " + path + ": " + errnoText(errno);
  int err = writeAll(fd, content, budget);
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) return "cannot write " + path + ": " + errnoText(err);
  return "";
}

bool isPreviousCsvReport(const fs::path& dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file(ec) || entry.path().extension() != ".csv") return false;
  }
  return !ec;
}

}  // namespace

std::string writeFileAtomic(const std::string& path, std::string_view content,
                            const AtomicWriteOptions& options) {
  if (path.empty()) return "no output path given";
  std::string temp = tempTemplate(path, "tmp");
  int fd = ::mkstemp(temp.data());
  if (fd < 0) return "cannot create a temporary file next to " + path + ": " + errnoText(errno);
  // mkstemp creates 0600; a report should get the same mode as any new file.
  ::fchmod(fd, 0666 & ~currentUmask());
  std::int64_t budget = options.failAfterBytes;
  int err = writeAll(fd, content, &budget);
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) {
    ::unlink(temp.c_str());
    return "cannot write " + path + ": " + errnoText(err);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    int renameErr = errno;
    ::unlink(temp.c_str());
    return "cannot replace " + path + ": " + errnoText(renameErr);
  }
  return "";
}

std::string writeFolderAtomic(const std::string& path,
                              const std::vector<std::pair<std::string, std::string>>& files,
                              const AtomicWriteOptions& options) {
  if (path.empty()) return "no output path given";
  fs::path target(path);
  while (!target.empty() && !target.has_filename()) target = target.parent_path();  // "out/" -> "out"
  std::error_code ec;
  bool exists = fs::exists(fs::symlink_status(target, ec));
  if (exists && !fs::is_directory(fs::symlink_status(target, ec)))
    return path + " exists and is not a folder";
  if (exists && !isPreviousCsvReport(target))
    return "refusing to replace " + path + ": it holds files other than a CSV report's .csv files";

  std::string temp = tempTemplate(target, "tmp");
  if (::mkdtemp(temp.data()) == nullptr)
    return "cannot create a temporary folder next to " + path + ": " + errnoText(errno);
  ::chmod(temp.c_str(), 0777 & ~currentUmask());
  std::int64_t budget = options.failAfterBytes;
  for (const auto& [name, content] : files) {
    std::string error = writeNewFile((fs::path(temp) / name).string(), content, &budget);
    if (!error.empty()) {
      fs::remove_all(temp, ec);
      return error;
    }
  }

  // rename(2) cannot replace a non-empty folder: move the old one aside first.
  std::string old;
  if (exists) {
    old = tempTemplate(target, "old");
    if (::mkdtemp(old.data()) == nullptr || ::rename(target.c_str(), old.c_str()) != 0) {
      int err = errno;
      fs::remove_all(temp, ec);
      if (!old.empty()) ::rmdir(old.c_str());
      return "cannot move the old " + path + " aside: " + errnoText(err);
    }
  }
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    int err = errno;
    if (exists) ::rename(old.c_str(), target.c_str());
    fs::remove_all(temp, ec);
    return "cannot replace " + path + ": " + errnoText(err);
  }
  if (exists) fs::remove_all(old, ec);
  return "";
}

}  // namespace gapscope::report
