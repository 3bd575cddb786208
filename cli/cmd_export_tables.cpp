// gapscope-cli export-tables TRACE -o DIR: one rank's analysis tables as
// gzip CSV (core/ranks/tables_csv.h, schema in docs/ranks.md), what the
// Dask path's workers run where the rank files live.
#include <ostream>

#include "command.h"
#include "gapscope/ranks/rank_set.h"
#include "gapscope/ranks/tables_csv.h"
#include "load_trace.h"

namespace gapscope::cli {
namespace {

int runExportTables(const Args& args, std::ostream& out, std::ostream& err) {
  auto path = tracePathArgument(args, "export-tables", err);
  if (!path) return 2;
  if (!args.has("output")) {
    err << "gapscope-cli export-tables: -o DIR is required\n";
    return 2;
  }
  ranks::RankOutcome loaded = ranks::loadRankTables(*path);
  if (!loaded.warning.empty()) err << "gapscope-cli export-tables: warning: " << loaded.warning << '\n';
  if (!loaded.tables) {
    err << "gapscope-cli export-tables: " << loaded.error << '\n';
    return 1;
  }
  const ranks::RankTables& tables = *loaded.tables;
  try {
    ranks::writeRankTables(tables, args.get("output"));
  } catch (const std::exception& e) {
    err << "gapscope-cli export-tables: " << e.what() << '\n';
    return 1;
  }
  out << "rank " << tables.rank << ": " << tables.steps.size() << " steps, " << tables.collectives.size()
      << " collectives, " << tables.kernels.size() << " kernels, " << tables.ops.size() << " ops, "
      << tables.gaps.size() << " gaps -> " << args.get("output") << '\n';
  return 0;
}

}  // namespace

GAPSCOPE_CLI_COMMAND("export-tables", "export-tables TRACE -o DIR",
                     "one rank's analysis tables (steps, collectives, kernels, ops, gaps) as gzip CSV, for the Dask path",
                     {}, runExportTables);

}  // namespace gapscope::cli
