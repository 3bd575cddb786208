// Several recordings of each side compared (diff_recordings.h).
#include "diff_recordings.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <memory>
#include <ostream>

#include "load_trace.h"

namespace gapscope::cli {
namespace {

constexpr const char* kSeparator = "vs";

// Each recording of a side, read and analysed one at a time (only its
// step times are kept, so memory holds one trace at once).
std::optional<std::vector<compare::Recording>> readSide(const std::vector<std::string>& paths, char side,
                                                        const analysis::AnalysisOptions& options,
                                                        std::ostream& err) {
  std::vector<compare::Recording> recordings;
  for (const std::string& path : paths) {
    std::optional<Trace> trace = loadTraceForCommand(path, std::string("diff: run ") + side, err);
    if (!trace) return std::nullopt;
    const analysis::TraceAnalysis run(std::make_shared<const Trace>(std::move(*trace)), options);
    recordings.push_back(compare::recordingOf(compare::runFigures(run)));
  }
  return recordings;
}

}  // namespace

std::optional<DiffSides> diffSides(const std::vector<std::string>& words, std::ostream& err) {
  const auto separator = std::find(words.begin(), words.end(), kSeparator);
  if (separator == words.end()) {
    if (words.size() == 2) return DiffSides{{words[0]}, {words[1]}};
    err << "gapscope-cli diff: expected two traces A B, or recordings of each side A1 A2 ... vs B1 B2 ..., got "
        << words.size() << " arguments (see gapscope-cli diff --help)\n";
    return std::nullopt;
  }
  DiffSides sides{{words.begin(), separator}, {separator + 1, words.end()}};
  if (std::find(sides.b.begin(), sides.b.end(), kSeparator) != sides.b.end()) {
    err << "gapscope-cli diff: \"vs\" given twice: A's recordings go before it, B's after (a file named vs: ./vs)\n";
    return std::nullopt;
  }
  if (sides.a.empty() || sides.b.empty()) {
    err << "gapscope-cli diff: no recording of run " << (sides.a.empty() ? "A before" : "B after")
        << " \"vs\"\n";
    return std::nullopt;
  }
  if (!sides.several()) return sides;  // a trace against itself is a comparison too
  // The same file twice would count one recording as two and fake a spread.
  std::set<std::filesystem::path> seen;
  for (const auto* side : {&sides.a, &sides.b}) {
    for (const std::string& path : *side) {
      std::error_code ec;
      const std::filesystem::path canonical = std::filesystem::weakly_canonical(path, ec);
      if (!seen.insert(ec ? std::filesystem::path(path) : canonical).second) {
        err << "gapscope-cli diff: " << path << " is given twice: each recording counts once\n";
        return std::nullopt;
      }
    }
  }
  return sides;
}

std::optional<compare::Comparison> compareRecordedSides(const DiffSides& sides,
                                                        const analysis::AnalysisOptions& options,
                                                        const compare::CompareOptions& compareOptions,
                                                        std::ostream& err) {
  std::array<std::vector<compare::Recording>, 2> recordings;
  for (std::size_t i = 0; i < 2; ++i) {
    auto side = readSide(i == 0 ? sides.a : sides.b, "AB"[i], options, err);
    if (!side) return std::nullopt;
    recordings[i] = std::move(*side);
  }
  // The typical pair is read again rather than every trace kept: a side
  // may be many large recordings.
  const std::string& typicalA = sides.a[compare::typicalRecording(recordings[0])];
  const std::string& typicalB = sides.b[compare::typicalRecording(recordings[1])];
  auto traces = loadTracePair(typicalA, typicalB, "diff", err);
  if (!traces) return std::nullopt;
  const analysis::TraceAnalysis a(std::make_shared<const Trace>(std::move((*traces)[0])), options);
  const analysis::TraceAnalysis b(std::make_shared<const Trace>(std::move((*traces)[1])), options);
  return compare::compareRecordings(a, b, std::move(recordings), compareOptions);
}

}  // namespace gapscope::cli
