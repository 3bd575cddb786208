// Issue 14 through the CLI, as a user meets it: a trace read from a pipe,
// a process substitution, a FIFO or standard input, valid or malformed,
// never a hang.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "cli_run.h"

namespace {

using gapscope::testing::CliResult;
using gapscope::testing::readFile;
using gapscope::testing::shellQuote;
using gapscope::testing::TempDir;

const std::string kCli = GAPSCOPE_BINARY_DIR "/cli/gapscope-cli";
const std::string kMlp = GAPSCOPE_TEST_DATA_DIR "/h200/mlp_eager.json";

// Runs a bash command line (pipes, process substitution) under a 60 s
// timeout: a reader that blocks makes the status 124, not a hung suite.
CliResult runBash(const std::string& line) {
  TempDir dir;
  const std::string out = (dir.path() / "out").string();
  const std::string err = (dir.path() / "err").string();
  const std::string command =
      "timeout 60 bash -c " + shellQuote(line) + " >" + shellQuote(out) + " 2>" + shellQuote(err);
  CliResult r;
  const int raw = std::system(command.c_str());
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = readFile(out);
  r.err = readFile(err);
  return r;
}

// The summary without its "Trace:" line (which names the path given).
std::string withoutTraceLine(const std::string& summary) {
  return std::regex_replace(summary, std::regex("Trace: [^\n]*\n"), "");
}

}  // namespace

TEST(CliPipes, StdinProcessSubstitutionAndGzipPipeReadLikeTheFile) {
  CliResult file = runBash(shellQuote(kCli) + " summary " + shellQuote(kMlp));
  ASSERT_EQ(file.status, 0) << file.err;
  TempDir dir;
  const std::string gz = (dir.path() / "t.json.gz").string();
  ASSERT_EQ(std::system(("gzip -c " + shellQuote(kMlp) + " > " + shellQuote(gz)).c_str()), 0);
  for (const std::string& line : {shellQuote(kCli) + " summary - < " + shellQuote(kMlp),
                                  "cat " + shellQuote(kMlp) + " | " + shellQuote(kCli) + " summary -",
                                  shellQuote(kCli) + " summary <(zcat " + shellQuote(gz) + ")",
                                  shellQuote(kCli) + " summary - < " + shellQuote(gz)}) {
    CliResult r = runBash(line);
    EXPECT_EQ(r.status, 0) << line << "\n" << r.err;
    EXPECT_EQ(withoutTraceLine(r.out), withoutTraceLine(file.out)) << line;
  }
}

TEST(CliPipes, MalformedTraceThroughAPipeFailsWithItsPosition) {
  // Before: placing the error re-opened the path, and a pipe blocked forever.
  TempDir dir;
  const std::string bad = (dir.path() / "bad.json").string();
  std::ofstream(bad) << "{\"traceEvents\": [\n  {\"ph\": \"X\", \"ts\": 1, \"dur\": 2 \"name\": \"x\"}\n]}\n";
  const std::string gz = bad + ".gz";
  ASSERT_EQ(std::system(("gzip -c " + shellQuote(bad) + " > " + shellQuote(gz)).c_str()), 0);
  for (const std::string& line : {shellQuote(kCli) + " summary <(zcat " + shellQuote(gz) + ")",
                                  shellQuote(kCli) + " ops - < " + shellQuote(bad),
                                  "mkfifo " + shellQuote(bad + ".fifo") + " && (cat " + shellQuote(bad) + " > " +
                                      shellQuote(bad + ".fifo") + " &) && " + shellQuote(kCli) + " kernels " +
                                      shellQuote(bad + ".fifo")}) {
    CliResult r = runBash(line);
    EXPECT_EQ(r.status, 1) << line << " (124: timed out)\n" << r.err;
    EXPECT_NE(r.err.find(":2:33 (byte 50): expected ',' or '}' after an object member, found '\"'"),
              std::string::npos)
        << line << "\n" << r.err;
  }
}
