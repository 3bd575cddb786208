#include "args_sources.h"

#include <fcntl.h>
#include <unistd.h>

#include "event_parser.h"

namespace gapscope::io {

namespace {

class FileArgsSource final : public ArgsSource {
 public:
  explicit FileArgsSource(int fd) : fd_(::fcntl(fd, F_DUPFD_CLOEXEC, 0)) {}
  ~FileArgsSource() override {
    if (fd_ >= 0) ::close(fd_);
  }
  std::string fetch(const ArgsRef& ref) const override { return argsFromSourceText(*this, ref); }
  bool keepsSource() const override { return fd_ >= 0; }
  std::string sourceText(std::uint64_t offset, std::uint32_t length) const override {
    if (fd_ < 0) return {};
    std::string out(length, '\0');
    std::size_t done = 0;
    while (done < out.size()) {
      ssize_t r = ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
      if (r <= 0) break;  // the end of the file (or a read error): what was read
      done += static_cast<std::size_t>(r);
    }
    out.resize(done);
    return out;
  }

 private:
  int fd_;
};

class ArenaArgsSource final : public ArgsSource {
 public:
  explicit ArenaArgsSource(std::vector<std::string> arenas) : arenas_(std::move(arenas)) {}
  std::string fetch(const ArgsRef& ref) const override {
    if (ref.length == 0) return {};
    const std::uint64_t arena = ref.offset >> kArenaShift;
    const std::uint64_t pos = ref.offset & ((std::uint64_t{1} << kArenaShift) - 1);
    if (arena >= arenas_.size() || pos + ref.length > arenas_[arena].size()) return {};
    return arenas_[arena].substr(pos, ref.length);
  }

 private:
  std::vector<std::string> arenas_;
};

}  // namespace

std::shared_ptr<const ArgsSource> makeFileArgsSource(int fd) {
  return std::make_shared<FileArgsSource>(fd);
}

std::shared_ptr<const ArgsSource> makeArenaArgsSource(std::vector<std::string> arenas) {
  return std::make_shared<ArenaArgsSource>(std::move(arenas));
}

}  // namespace gapscope::io
