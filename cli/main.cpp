// gapscope-cli: the analyses of gapscope, headless, for CI and scripts.
#include <algorithm>
#include <cctype>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "gapscope/io/heap_setup.h"
#include "command.h"
#include "gapscope/version.h"

namespace gapscope::cli {

std::map<std::string, Command>& commandRegistry() {
  static std::map<std::string, Command> registry;
  return registry;
}

CommandRegistrar::CommandRegistrar(Command c) {
  std::string name = c.name;
  commandRegistry().emplace(std::move(name), std::move(c));
}

std::optional<Args> Args::parse(const std::vector<std::string>& argv,
                                const std::vector<std::string>& flags, std::string* error) {
  Args args;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "--") {  // the rest is a program to run, with its own arguments
      args.program_.assign(argv.begin() + static_cast<std::ptrdiff_t>(i) + 1, argv.end());
      args.hasProgram_ = true;
      break;
    }
    if (a == "-o") {  // the one short option: the output path
      if (i + 1 >= argv.size()) {
        *error = "option -o needs a value";
        return std::nullopt;
      }
      args.options_["output"] = argv[++i];
      continue;
    }
    if (a.rfind("--", 0) != 0 || a.size() == 2) {
      args.positional_.push_back(a);
      continue;
    }
    std::string key = a.substr(2);
    std::string value;
    auto eq = key.find('=');
    bool isFlag = false;
    for (const auto& f : flags) isFlag = isFlag || f == key;
    if (eq != std::string::npos) {
      value = key.substr(eq + 1);
      key = key.substr(0, eq);
    } else if (!isFlag) {
      if (i + 1 >= argv.size()) {
        *error = "option --" + key + " needs a value";
        return std::nullopt;
      }
      value = argv[++i];
    }
    args.options_[key] = value;
  }
  return args;
}

std::string Args::get(const std::string& key, const std::string& fallback) const {
  auto it = options_.find(key);
  return it == options_.end() ? fallback : it->second;
}

long long Args::getInt(const std::string& key, long long fallback) const {
  auto it = options_.find(key);
  if (it == options_.end()) return fallback;
  try {
    std::size_t used = 0;
    long long v = std::stoll(it->second, &used);
    if (used == it->second.size()) return v;
  } catch (const std::exception&) {
  }
  throw std::invalid_argument("--" + key + " expects an integer, got '" + it->second + "'");
}

double Args::getDouble(const std::string& key, double fallback) const {
  auto it = options_.find(key);
  if (it == options_.end()) return fallback;
  try {
    std::size_t used = 0;
    double v = std::stod(it->second, &used);
    if (used == it->second.size()) return v;
  } catch (const std::exception&) {
  }
  throw std::invalid_argument("--" + key + " expects a number, got '" + it->second + "'");
}

// The options a command accepts are the ones its usage line names, so the
// help text and the parser cannot disagree.
static std::vector<std::string> acceptedOptions(const Command& cmd) {
  std::vector<std::string> names{"output"};
  const std::string& u = cmd.usage;
  for (std::size_t pos = u.find("--"); pos != std::string::npos; pos = u.find("--", pos + 2)) {
    std::size_t end = pos + 2;
    while (end < u.size() && (std::isalnum(static_cast<unsigned char>(u[end])) || u[end] == '-')) ++end;
    names.push_back(u.substr(pos + 2, end - pos - 2));
  }
  return names;
}

static std::string firstUnknownOption(const Command& cmd, const Args& args) {
  const auto accepted = acceptedOptions(cmd);
  for (const auto& name : args.optionNames()) {
    if (std::find(accepted.begin(), accepted.end(), name) == accepted.end()) return name;
  }
  return {};
}

static void printHelp(std::ostream& out) {
  out << "gapscope-cli " GAPSCOPE_VERSION " - where the GPU waited and why, headless\n\n"
      << "Usage: gapscope-cli COMMAND [ARGS...]\n\nCommands:\n";
  for (const auto& [name, c] : commandRegistry()) out << "  " << c.usage << "\n      " << c.summary << "\n";
  out << "\nOptions:\n  --help      this text (or COMMAND --help)\n  --version   print the version\n"
      << "\nExit status: 0 on success, 1 when the command failed (reason on stderr), 2 for bad usage.\n";
}

static int runMain(int argc, char** argv) {
  std::vector<std::string> words(argv + 1, argv + argc);
  if (words.empty() || words[0] == "--help" || words[0] == "-h" || words[0] == "help") {
    printHelp(words.empty() ? std::cerr : std::cout);
    return words.empty() ? 2 : 0;
  }
  if (words[0] == "--version") {
    std::cout << "gapscope-cli " GAPSCOPE_VERSION "\n";
    return 0;
  }
  auto it = commandRegistry().find(words[0]);
  if (it == commandRegistry().end()) {
    std::cerr << "gapscope-cli: unknown command '" << words[0] << "' (see gapscope-cli --help)\n";
    return 2;
  }
  const Command& cmd = it->second;
  std::vector<std::string> rest(words.begin() + 1, words.end());
  for (const auto& w : rest) {
    if (w == "--") break;  // a program's own --help is its business
    if (w == "--help" || w == "-h") {
      std::cout << "Usage: gapscope-cli " << cmd.usage << "\n" << cmd.summary << "\n";
      return 0;
    }
  }
  std::string error;
  auto args = Args::parse(rest, cmd.flags, &error);
  if (!args) {
    std::cerr << "gapscope-cli " << cmd.name << ": " << error << "\n";
    return 2;
  }
  if (auto unknown = firstUnknownOption(cmd, *args); !unknown.empty()) {
    std::cerr << "gapscope-cli " << cmd.name << ": unknown option --" << unknown
              << " (usage: gapscope-cli " << cmd.usage << ")\n";
    return 2;
  }
  try {
    return cmd.run(*args, std::cout, std::cerr);
  } catch (const std::invalid_argument& e) {
    std::cerr << "gapscope-cli " << cmd.name << ": " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "gapscope-cli " << cmd.name << ": " << e.what() << "\n";
    return 1;
  }
}

}  // namespace gapscope::cli

int main(int argc, char** argv) {
  gapscope::io::setUpHeap(argv);
  return gapscope::cli::runMain(argc, argv);
}
