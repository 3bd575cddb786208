#include "gapscope/ranks/rank_set.h"
#include "gapscope/ranks/ranks_document.h"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <barrier>
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "gapscope/io/chrome_reader.h"
#include "gapscope/io/heap_setup.h"

namespace gapscope::ranks {
namespace fs = std::filesystem;
namespace {

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}
bool isTraceName(const std::string& name) { return endsWith(name, ".json") || endsWith(name, ".json.gz"); }

void addDirectory(const fs::path& dir, std::vector<std::string>& out) {
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file() && isTraceName(entry.path().filename().string())) out.push_back(entry.path().string());
  }
}

// A pattern's wildcards only in its last component ("runs/rank-*.json").
void addMatches(const std::string& pattern, std::vector<std::string>& out) {
  const fs::path p(pattern);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  const std::string name = p.filename().string();
  if (!fs::is_directory(dir)) return;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string file = entry.path().filename().string();
    if (entry.is_regular_file() && fnmatch(name.c_str(), file.c_str(), 0) == 0) {
      out.push_back(p.has_parent_path() ? (dir / file).string() : file);
    }
  }
}

// Holds back a rank's load until its expected memory fits the budget (one
// rank always runs, however big).
class MemoryGate {
 public:
  explicit MemoryGate(std::uint64_t budget) : budget_(budget) {}
  void acquire(std::uint64_t bytes) {
    std::unique_lock lock(mutex_);
    freed_.wait(lock, [&] { return running_ == 0 || inUse_ + bytes <= budget_; });
    inUse_ += bytes;
    ++running_;
    mostRunning_ = std::max(mostRunning_, running_);
  }
  void release(std::uint64_t bytes) {
    {
      std::lock_guard lock(mutex_);
      inUse_ -= bytes;
      --running_;
    }
    freed_.notify_all();
  }
  int mostRunning() const { return mostRunning_; }

 private:
  std::mutex mutex_;
  std::condition_variable freed_;
  std::uint64_t budget_;
  std::uint64_t inUse_ = 0;
  int running_ = 0;
  int mostRunning_ = 0;
};

}  // namespace

std::string describe(const RankLoadError& error) {
  if (error.message.find(error.file) != std::string::npos) return error.message;
  return error.file + ": " + error.message;
}

RankOutcome loadRankTables(const std::string& file, int threads, const std::atomic<bool>* cancel) {
  io::LoadOptions options;
  options.threads = threads;
  options.cancel = cancel;
  io::LoadResult result = io::loadChromeTrace(file, options);
  RankOutcome outcome;
  if (result.cancelled) return outcome;
  if (!result.trace) {
    outcome.error = result.error.empty() ? "could not read " + file : result.error;
    // `ranks DIR --format json > DIR/ranks.json` puts the set's own result beside its ranks.
    if (looksLikeRanksDocument(file))
      outcome.error = file + ": a ranks document (the JSON `gapscope-cli ranks` writes), not a rank's trace";
    return outcome;
  }
  // A cut or malformed file keeps what came before the fault, as a single trace does.
  if (!result.error.empty()) {
    outcome.warning = result.error + " (kept what was read before)";
  } else if (result.truncated) {
    // Where the cut is, as `summary` says it: the reader's own issue.
    const ImportIssue* cut = result.trace->issues.find("truncated");
    outcome.warning = file + ": " + (cut ? cut->description : "the file is truncated; everything before the cut is loaded");
  }
  auto trace = std::make_shared<const Trace>(std::move(*result.trace));
  analysis::AnalysisOptions analysisOptions = rankAnalysisOptions();
  analysisOptions.gaps.threads = threads;
  analysis::TraceAnalysis analysis(trace, analysisOptions);
  outcome.tables = buildRankTables(analysis, file);
  return outcome;
}

std::vector<std::string> rankFiles(const std::vector<std::string>& arguments) {
  std::vector<std::string> files;
  for (const auto& a : arguments) {
    const std::size_t before = files.size();
    if (fs::is_directory(a)) addDirectory(a, files);
    else if (a.find_first_of("*?[") != std::string::npos) addMatches(a, files);
    else if (fs::exists(a)) files.push_back(a);
    else throw std::runtime_error(a + ": cannot open: No such file or directory");
    if (files.size() == before) {
      throw std::runtime_error(a + (fs::is_directory(a) ? ": no trace files (.json, .json.gz) there"
                                                         : ": no trace files (.json, .json.gz) match"));
    }
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

namespace {

// A .json.gz's text taken as 8 times the file, without opening it.
std::uint64_t expectedJsonBytes(const std::string& file) {
  std::error_code ec;
  const std::uint64_t size = fs::file_size(file, ec);
  if (ec) return 0;
  return endsWith(file, ".gz") ? size * 8 : size;
}

}  // namespace

std::uint64_t expectedPeakBytes(const std::string& file) {
  // Peak memory of a load is about 0.3-0.4x of the JSON (docs/performance.md);
  // 0.5x leaves room for the analysis beside the model.
  return expectedJsonBytes(file) / 2;
}

std::uint64_t defaultMemoryBudget() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0) return std::uint64_t{4} << 30;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize) / 2;
}

std::uint64_t parseMemoryBudget(const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const std::string unit = text.substr(used);
  if (used == 0 || value <= 0) throw std::invalid_argument("--memory-budget expects e.g. 8G, 512M or 25%, got '" + text + "'");
  const long pages = sysconf(_SC_PHYS_PAGES);
  const double physical = static_cast<double>(pages) * static_cast<double>(sysconf(_SC_PAGESIZE));
  double bytes = 0;
  if (unit.empty()) bytes = value;
  else if (unit == "K" || unit == "k") bytes = value * 1024;
  else if (unit == "M" || unit == "m") bytes = value * 1024 * 1024;
  else if (unit == "G" || unit == "g") bytes = value * 1024 * 1024 * 1024;
  else if (unit == "%" && value <= 100) bytes = physical * value / 100;
  else throw std::invalid_argument("--memory-budget expects e.g. 8G, 512M or 25%, got '" + text + "'");
  return static_cast<std::uint64_t>(bytes);
}

RankSet loadRankSet(const std::vector<std::string>& files, const RankSetOptions& options) {
  const int hardware = io::usableCores();
  const int workers = std::max(1, std::min<int>(options.threads > 0 ? options.threads : hardware,
                                                static_cast<int>(files.size())));
  // Each rank's reader and analysis get a share of the cores.
  const int threadsPerRank = std::max(1, hardware / workers);
  MemoryGate gate(options.memoryBudget > 0 ? options.memoryBudget : defaultMemoryBudget());
  // The set is read as one big load: its ranks together decide on huge pages.
  std::uint64_t setJson = 0;
  for (const auto& f : files) setJson += expectedJsonBytes(f);
  io::allowHugePagesFor(setJson);
  std::vector<RankOutcome> outcomes(files.size());
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  // Once every worker is done, each gives its arena's top back while the
  // threshold is low (glibc trims an arena top only in a free made into it).
  std::optional<io::ArenaTopsReturned> returned;
  std::barrier allDone(workers, [&]() noexcept { returned.emplace(); });
  auto loadRanks = [&] {
    for (std::size_t i = next++; i < files.size(); i = next++) {
      if (options.cancel && options.cancel->load()) return;
      const std::uint64_t bytes = expectedPeakBytes(files[i]);
      gate.acquire(bytes);
      outcomes[i] = loadRankTables(files[i], threadsPerRank, options.cancel);
      gate.release(bytes);
      if (options.progress) options.progress(++done, files.size());
    }
  };
  auto work = [&] {
    loadRanks();
    allDone.arrive_and_wait();
    io::returnThisThreadsArenaTop();
  };
  std::vector<std::thread> pool;
  for (int w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();

  RankSet set;
  set.concurrency = gate.mostRunning();
  set.cancelled = options.cancel && options.cancel->load();
  // `returned` still lives: the tables' frees below are the workers' last.
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!outcomes[i].error.empty()) set.errors.push_back({files[i], outcomes[i].error});
    if (!outcomes[i].warning.empty()) set.warnings.push_back(outcomes[i].warning);
    if (outcomes[i].tables) {
      // A copy made here, after the traces are gone, packs the tables
      // together instead of leaving them scattered among the freed pages
      // of the workers' heaps, which can then go back to the system.
      set.tables.push_back(RankTables(*outcomes[i].tables));
      outcomes[i].tables.reset();
    }
  }
  return set;
}

}  // namespace gapscope::ranks
