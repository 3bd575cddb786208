// Runs the built gapscope-cli and captures its exit status, stdout and stderr.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace gapscope::testing {

struct CliResult {
  int status = -1;
  std::string out;
  std::string err;
};

inline std::string shellQuote(const std::string& word) {
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A fresh directory under the system temp dir, removed on destruction.
class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("gapscope-cli-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  static int& counter() {
    static int n = 0;
    return n;
  }
  std::filesystem::path path_;
};

inline CliResult runCli(const std::vector<std::string>& args) {
  TempDir dir;
  std::string command = shellQuote(GAPSCOPE_BINARY_DIR "/cli/gapscope-cli");
  for (const auto& a : args) command += " " + shellQuote(a);
  command += " >" + shellQuote((dir.path() / "out").string()) + " 2>" + shellQuote((dir.path() / "err").string());
  CliResult r;
  const int raw = std::system(command.c_str());
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = readFile(dir.path() / "out");
  r.err = readFile(dir.path() / "err");
  return r;
}

// Splits CSV text (RFC 4180 quoting) into rows of fields.
inline std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(field);
      field.clear();
    } else if (c == '\n') {
      row.push_back(field);
      field.clear();
      rows.push_back(row);
      row.clear();
    } else {
      field += c;
    }
  }
  if (!field.empty() || !row.empty()) {
    row.push_back(field);
    rows.push_back(row);
  }
  return rows;
}

// Exact nanoseconds of a decimal microsecond text ("1.92" -> 1920).
inline long long usTextToNs(const std::string& text) {
  const bool negative = !text.empty() && text[0] == '-';
  const std::string digits = negative ? text.substr(1) : text;
  const auto dot = digits.find('.');
  long long ns = std::stoll(digits.substr(0, dot)) * 1000;
  if (dot != std::string::npos) {
    std::string frac = digits.substr(dot + 1);
    if (frac.size() > 3) throw std::invalid_argument("more than 3 decimals: " + text);
    frac.resize(3, '0');
    ns += std::stoll(frac);
  }
  return negative ? -ns : ns;
}

}  // namespace gapscope::testing
