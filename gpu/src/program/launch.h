// Starting the recorded program: its environment (the injection variables),
// the listening socket it reports to, and the process itself.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "gapscope/gpu/program_recorder.h"

namespace gapscope::gpu::program {

// Environment variables the injection library reads.
inline constexpr const char* kSocketEnv = "GAPSCOPE_RECORD_SOCKET";
inline constexpr const char* kCaptureEnv = "GAPSCOPE_RECORD_CAPTURE";  // "", "cudaProfilerApi", "nvtx:NAME"
inline constexpr const char* kPoolEnv = "GAPSCOPE_RECORD_POOL_BYTES";
inline constexpr const char* kChannelEnv = "GAPSCOPE_RECORD_CHANNEL_BYTES";

// A Unix stream socket listening in a fresh private folder; removed with it.
class ListenSocket {
 public:
  ListenSocket() = default;
  ~ListenSocket();
  ListenSocket(const ListenSocket&) = delete;
  ListenSocket& operator=(const ListenSocket&) = delete;
  bool open(std::string* error);
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string dir_;
  std::string path_;
};

// NAME=VALUE lines of the current environment with the recorder's set.
std::vector<std::string> programEnvironment(const ProgramOptions& o, const std::string& socketPath,
                                            const std::string& injectionLibrary, const std::string& torchOpsDir);

// posix_spawnp, in `workingDirectory` unless empty; -1 and `error` set when
// CMD could not be started.
pid_t spawnProgram(const std::vector<std::string>& command, const std::vector<std::string>& environment,
                   const std::string& workingDirectory, std::string* error);

// Exit status as a shell reports it: the code, or 128 + the signal.
int shellStatus(int waitStatus);

}  // namespace gapscope::gpu::program
