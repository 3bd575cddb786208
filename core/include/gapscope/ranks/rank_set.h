// Opening a set of per-rank traces: a directory, a list of files or glob
// patterns. Each rank is read and analysed on its own worker, as many at
// once as the memory budget allows, and only its tables (rank_tables.h) are
// kept: a rank's full timeline is loaded again when someone asks for it
// (the app's heat map does, on a click).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gapscope/ranks/rank_tables.h"

namespace gapscope::ranks {

// The trace files a list of arguments names: each directory contributes its
// *.json and *.json.gz files (not recursively), each pattern with * or ?
// the files it matches, each file itself. Sorted, duplicates removed.
// Throws std::runtime_error naming the argument that matched nothing.
std::vector<std::string> rankFiles(const std::vector<std::string>& arguments);

// Bytes of memory one rank is expected to need while it is read and
// analysed: the model and the reader's peak, from the file's size (a .gz
// file counts as 8x its size, typical for Kineto JSON).
std::uint64_t expectedPeakBytes(const std::string& file);

// Half the physical memory (sysconf), the default budget.
std::uint64_t defaultMemoryBudget();

// "8G", "512M", "25%" (of physical memory) or a plain number of bytes;
// throws std::invalid_argument for anything else.
std::uint64_t parseMemoryBudget(const std::string& text);

struct RankSetOptions {
  std::uint64_t memoryBudget = 0;  // 0: defaultMemoryBudget()
  int threads = 0;                 // ranks read at once at most; 0: the cores this process may use
  // Called from the workers after each rank, with (done, total).
  std::function<void(std::size_t, std::size_t)> progress;
  const std::atomic<bool>* cancel = nullptr;
};

struct RankLoadError {
  std::string file;
  std::string message;
};

// "FILE: why", the file named once: most of the reader's messages name it
// already ("rank-3.json:12:7 (byte 301): ...").
std::string describe(const RankLoadError& error);

struct RankSet {
  std::vector<RankTables> tables;    // in file order; files that failed are left out
  std::vector<RankLoadError> errors;
  std::vector<std::string> warnings;  // e.g. "rank-3.json: truncated at byte ..." (kept what was read)
  int concurrency = 0;                // ranks that were read at once
  bool cancelled = false;
};

// One rank read and analysed: its tables, or the error that left nothing
// to analyse. A file malformed or cut part way keeps what came before the
// fault, with a warning saying so. `ranks` and `export-tables` both read
// through here, so they keep and refuse the same files with the same words.
struct RankOutcome {
  std::optional<RankTables> tables;
  std::string error;
  std::string warning;
};
RankOutcome loadRankTables(const std::string& file, int threads = 2, const std::atomic<bool>* cancel = nullptr);

// Reads and analyses every file; never throws for a bad file (its error is
// listed and the others are kept).
RankSet loadRankSet(const std::vector<std::string>& files, const RankSetOptions& options = {});

}  // namespace gapscope::ranks
