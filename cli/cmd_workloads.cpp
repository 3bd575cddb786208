// gapscope-cli workloads: the bundled GPU workloads, one line each.
#include <algorithm>
#include <ostream>
#include <string>

#include "command.h"

#if GAPSCOPE_HAVE_GPU
#include "gapscope/gpu/workloads.h"
#endif

namespace gapscope::cli {
namespace {

int runWorkloads(const Args&, std::ostream& out, std::ostream& err) {
#if GAPSCOPE_HAVE_GPU
  std::size_t width = 0;
  for (const auto& w : gpu::workloads()) width = std::max(width, w.name.size());
  for (const auto& w : gpu::workloads()) {
    std::string variants;
    for (const auto& v : w.variants) variants += (variants.empty() ? "" : "|") + v;
    out << w.name << std::string(width + 2 - w.name.size(), ' ') << w.description << " [--variant " << variants
        << ", --size " << w.minSize << ".." << w.maxSize << " default " << w.defaultSize << ", --steps default "
        << w.defaultSteps << "]\n";
  }
  return 0;
#else
  err << "gapscope-cli workloads: this gapscope-cli was built without the GPU recorder (GAPSCOPE_BUILD_GPU=OFF)\n";
  return 1;
#endif
}

}  // namespace

GAPSCOPE_CLI_COMMAND("workloads", "workloads", "list the bundled GPU workloads that `record` runs", {},
                     runWorkloads);

}  // namespace gapscope::cli
