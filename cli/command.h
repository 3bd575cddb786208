// gapscope-cli subcommands. Each lives in its own cmd_*.cpp and registers
// itself with GAPSCOPE_CLI_COMMAND, so adding one touches no other file.
#pragma once

#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gapscope::cli {

// Parsed command line: positional arguments and --key value / --flag options.
class Args {
 public:
  // `flags` are options that take no value (e.g. "per-step").
  static std::optional<Args> parse(const std::vector<std::string>& argv,
                                   const std::vector<std::string>& flags,
                                   std::string* error);
  const std::vector<std::string>& positional() const { return positional_; }
  // What follows "--": a program and its arguments, taken as they are.
  bool hasProgram() const { return hasProgram_; }
  const std::vector<std::string>& program() const { return program_; }
  bool has(const std::string& key) const { return options_.count(key) != 0; }
  std::string get(const std::string& key, const std::string& fallback = "") const;
  // Throws std::invalid_argument naming the option when not a number.
  long long getInt(const std::string& key, long long fallback) const;
  double getDouble(const std::string& key, double fallback) const;
  std::vector<std::string> optionNames() const {
    std::vector<std::string> names;
    for (const auto& [key, value] : options_) names.push_back(key);
    return names;
  }

 private:
  std::vector<std::string> positional_;
  std::vector<std::string> program_;
  bool hasProgram_ = false;
  std::map<std::string, std::string> options_;
};

struct Command {
  std::string name;
  std::string usage;    // e.g. "ops TRACE [--format text|json|csv] ..."
  std::string summary;  // one line
  std::vector<std::string> flags;  // value-less options
  // Returns the exit code; writes results to out, problems to err.
  std::function<int(const Args&, std::ostream& out, std::ostream& err)> run;
};

std::map<std::string, Command>& commandRegistry();

struct CommandRegistrar {
  explicit CommandRegistrar(Command c);
};

}  // namespace gapscope::cli

#define GAPSCOPE_CLI_CONCAT2(a, b) a##b
#define GAPSCOPE_CLI_CONCAT(a, b) GAPSCOPE_CLI_CONCAT2(a, b)
#define GAPSCOPE_CLI_COMMAND(...)                                              \
  static ::gapscope::cli::CommandRegistrar GAPSCOPE_CLI_CONCAT(registrar_, __COUNTER__)( \
      ::gapscope::cli::Command{__VA_ARGS__})
