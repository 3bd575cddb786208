// gapscope-gen-ranks DIR [--ranks N] [--steps N | --megabytes M] [--kernels N]
//                    [--gap-rank R --gap-step S] [--late-rank R --late-step S]
//                    [--warm-up-rank R [--warm-up-ms MS]] [--marker NAME] [--gzip] [--no-distributed-info]
// Writes a set of per-rank traces with planted stragglers (rank_set_generator.h).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>

#include "rank_set_generator.h"

namespace {

int usage() {
  std::fputs("usage: gapscope-gen-ranks DIR [--ranks N] [--steps N | --megabytes M] [--kernels N]\n"
             "         [--gap-rank R --gap-step S] [--late-rank R --late-step S]\n"
             "         [--warm-up-rank R [--warm-up-ms MS]] [--marker NAME] [--gzip] [--no-distributed-info]\n",
             stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return usage();  // DIR first: "--help" is not a folder to fill
  gapscope::bench::RankSetSpec spec;
  double megabytes = 0;
  try {
    for (int i = 2; i < argc; ++i) {
      const std::string a = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
        return argv[++i];
      };
      if (a == "--ranks") spec.ranks = std::stoi(value());
      else if (a == "--steps") spec.steps = std::stoi(value());
      else if (a == "--megabytes") megabytes = std::stod(value());
      else if (a == "--kernels") spec.kernelsPerStep = std::stoi(value());
      else if (a == "--gap-rank") spec.gapRank = std::stoi(value());
      else if (a == "--gap-step") spec.gapStep = std::stoi(value());
      else if (a == "--late-rank") spec.lateRank = std::stoi(value());
      else if (a == "--late-step") spec.lateStep = std::stoi(value());
      else if (a == "--warm-up-rank") spec.warmUpRank = std::stoi(value());
      else if (a == "--warm-up-ms") spec.warmUpNs = static_cast<std::int64_t>(std::stod(value()) * 1e6);
      else if (a == "--marker") spec.marker = value();
      else if (a == "--gzip") spec.gzip = true;
      else if (a == "--no-distributed-info") spec.distributedInfo = false;
      else return usage();
    }
    if (megabytes > 0) gapscope::bench::sizeRanksTo(spec, megabytes);
    for (const auto& path : gapscope::bench::writeRankSet(argv[1], spec)) std::printf("%s\n", path.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gapscope-gen-ranks: %s\n", e.what());
    return 1;
  }
  return 0;
}
