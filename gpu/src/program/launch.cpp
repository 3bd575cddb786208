#include "launch.h"

#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <vector>

#include "gapscope/io/heap_setup.h"

extern char** environ;

namespace gapscope::gpu::program {

namespace fs = std::filesystem;

ListenSocket::~ListenSocket() {
  if (fd_ >= 0) ::close(fd_);
  std::error_code ec;
  if (!dir_.empty()) fs::remove_all(dir_, ec);
}

bool ListenSocket::open(std::string* error) {
  std::string tmpl = (fs::temp_directory_path() / "gapscope-record-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) {
    *error = "cannot create a folder for the recorder's socket in " + fs::temp_directory_path().string() + ": " +
             std::strerror(errno);
    return false;
  }
  dir_ = tmpl;
  path_ = dir_ + "/socket";
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path_.size() >= sizeof addr.sun_path) {
    *error = "the socket path " + path_ + " is too long (set TMPDIR to a shorter folder)";
    return false;
  }
  std::memcpy(addr.sun_path, path_.c_str(), path_.size() + 1);
  fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd_, 64) != 0) {
    *error = "cannot listen on " + path_ + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

namespace {

std::string captureValue(const ProgramOptions& o) {
  switch (o.captureRange) {
    case CaptureRange::None: return "";
    case CaptureRange::CudaProfilerApi: return "cudaProfilerApi";
    case CaptureRange::Nvtx: return "nvtx:" + o.captureNvtxName;
  }
  return "";
}

}  // namespace

std::vector<std::string> programEnvironment(const ProgramOptions& o, const std::string& socketPath,
                                            const std::string& injectionLibrary, const std::string& torchOpsDir) {
  std::vector<std::pair<std::string, std::string>> set;
  std::string userPythonPath;
  for (const auto& entry : o.environment) {
    const auto eq = entry.find('=');
    if (eq == std::string::npos || eq == 0) continue;  // the dialog and the tests give NAME=VALUE only
    std::string key = entry.substr(0, eq);
    if (key == "PYTHONPATH") userPythonPath = entry.substr(eq + 1);
    std::erase_if(set, [&key](const auto& kv) { return kv.first == key; });
    set.emplace_back(std::move(key), entry.substr(eq + 1));
  }
  if (o.inject) {
    auto put = [&set](std::string key, std::string value) {
      std::erase_if(set, [&key](const auto& kv) { return kv.first == key; });
      set.emplace_back(std::move(key), std::move(value));
    };
    put("CUDA_INJECTION64_PATH", injectionLibrary);
    put("NVTX_INJECTION64_PATH", injectionLibrary);
    put(kSocketEnv, socketPath);
    put(kCaptureEnv, captureValue(o));
    put(kPoolEnv, std::to_string(o.cuptiPoolBytes));
    put(kChannelEnv, std::to_string(o.channelBytes));
    if (o.torchOps) {
      const char* inherited = std::getenv("PYTHONPATH");
      std::string rest = !userPythonPath.empty() ? userPythonPath : (inherited ? inherited : "");
      put("PYTHONPATH", torchOpsDir + (rest.empty() ? "" : ":" + rest));
      put("GAPSCOPE_TORCH_OPS", "1");
    }
  }
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string line(*e);
    std::string key = line.substr(0, line.find('='));
    bool replaced = false;
    for (const auto& [k, v] : set) replaced = replaced || k == key;
    if (!replaced) env.push_back(std::move(line));
  }
  for (const auto& [k, v] : set) env.push_back(k + "=" + v);
  return env;
}

pid_t spawnProgram(const std::vector<std::string>& command, const std::vector<std::string>& environment,
                   const std::string& workingDirectory, std::string* error) {
  std::vector<char*> argv;
  for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (const auto& e : environment) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  if (!workingDirectory.empty() && !std::filesystem::is_directory(workingDirectory)) {
    *error = "cannot start " + command.front() + ": the working directory " + workingDirectory + " does not exist";
    return -1;
  }
  // The program would inherit gapscope's hold on huge pages through exec.
  io::allowHugePages();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // The change of folder happens in the child before exec, so a relative
  // program path (./train) is found there, as a shell there would find it.
  if (!workingDirectory.empty()) posix_spawn_file_actions_addchdir_np(&actions, workingDirectory.c_str());
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    *error = "cannot start " + command.front() + ": " + std::strerror(rc);
    return -1;
  }
  return pid;
}

int shellStatus(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace gapscope::gpu::program

namespace gapscope::gpu {
namespace {

// The file a command runs: a path with a slash as given (under
// `workingDirectory` when relative and one is given, where the program
// starts), a bare name as posix_spawnp finds it on PATH (/bin:/usr/bin
// without one); "" when none.
std::string programFile(const std::string& program, const std::string& workingDirectory) {
  if (program.find('/') != std::string::npos) {
    return program.front() == '/' || workingDirectory.empty() ? program : workingDirectory + "/" + program;
  }
  const char* path = std::getenv("PATH");
  const std::string dirs = path ? path : "/bin:/usr/bin";
  for (std::size_t from = 0; from <= dirs.size();) {
    std::size_t to = dirs.find(':', from);
    if (to == std::string::npos) to = dirs.size();
    const std::string dir = to > from ? dirs.substr(from, to - from) : ".";
    const std::string candidate = dir + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0 && std::filesystem::is_regular_file(candidate)) return candidate;
    from = to + 1;
  }
  return {};
}

bool isPythonName(std::string_view path) {
  const std::string_view name = path.substr(path.find_last_of('/') + 1);
  return name.substr(0, 6) == "python" || name.substr(0, 4) == "pypy";
}

// The words of one line, split at blanks, quotes around them taken off.
std::vector<std::string_view> wordsOf(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    std::size_t end = i;
    while (end < line.size() && line[end] != ' ' && line[end] != '\t') ++end;
    std::string_view word = line.substr(i, end - i);
    while (!word.empty() && (word.front() == '\'' || word.front() == '"')) word.remove_prefix(1);
    while (!word.empty() && (word.back() == '\'' || word.back() == '"' || word.back() == '\r')) word.remove_suffix(1);
    if (!word.empty()) words.push_back(word);
    i = end;
  }
  return words;
}

// The interpreter a #! line runs: its program, or what `env` runs (its
// options and VAR=value words skipped).
std::string_view interpreterOf(std::string_view shebang) {
  const std::vector<std::string_view> words = wordsOf(shebang.substr(2));
  if (words.empty()) return {};
  const std::string_view program = words.front();
  if (program.substr(program.find_last_of('/') + 1) != "env") return program;
  for (std::size_t i = 1; i < words.size(); ++i) {
    if (words[i].front() != '-' && words[i].find('=') == std::string_view::npos) return words[i];
  }
  return {};
}

// A script whose #! line runs Python (torchrun, accelerate, deepspeed:
// launchers installed as Python entry points), or pip's /bin/sh trampoline
// for an interpreter path too long or spaced for a #! line, whose second
// line is '''exec' "/long/path/python3" "$0" "$@".
bool runsPython(const std::string& file) {
  std::FILE* f = file.empty() ? nullptr : std::fopen(file.c_str(), "rb");
  if (!f) return false;
  char head[512];
  const std::size_t n = std::fread(head, 1, sizeof head, f);
  std::fclose(f);
  const std::string_view text(head, n);
  if (text.substr(0, 2) != "#!") return false;
  const std::size_t firstEnd = text.find('\n');
  const std::string_view interpreter = interpreterOf(text.substr(0, firstEnd));
  if (isPythonName(interpreter)) return true;
  if (firstEnd == std::string_view::npos || interpreter != "/bin/sh") return false;
  std::string_view second = text.substr(firstEnd + 1, text.find('\n', firstEnd + 1) - firstEnd - 1);
  constexpr std::string_view kTrampoline = "'''exec' ";
  if (second.substr(0, kTrampoline.size()) != kTrampoline) return false;
  second.remove_prefix(kTrampoline.size());
  // The interpreter's path, in quotes when it has a space.
  const bool quoted = !second.empty() && (second.front() == '"' || second.front() == '\'');
  const std::size_t end = quoted ? second.find(second.front(), 1) : second.find(' ');
  return isPythonName(quoted ? second.substr(1, end - 1) : second.substr(0, end));
}

}  // namespace

bool looksLikePython(const std::string& program, const std::string& workingDirectory) {
  return isPythonName(program) || runsPython(programFile(program, workingDirectory));
}

}  // namespace gapscope::gpu
