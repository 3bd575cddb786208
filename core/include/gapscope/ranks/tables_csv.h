// The rank tables as files: `gapscope-cli export-tables TRACE -o DIR` writes
// one gzip CSV per table into DIR, each row led by the rank, so the tables
// of many ranks concatenate. The schema is fixed and versioned
// (kTablesSchemaVersion; docs/ranks.md lists every column with its type and
// unit). Times are integer nanoseconds.
//   meta.csv.gz         schema_version, rank, world_size, file, step_source, step_name
//   steps.csv.gz        one row per step
//   collectives.csv.gz  one row per collective kernel
//   kernels.csv.gz      one row per kernel name
//   ops.csv.gz          one row per CPU operator name
//   gaps.csv.gz         one row per device-level gap of >= 1 us
#pragma once

#include <string>
#include <vector>

#include "gapscope/ranks/rank_tables.h"

namespace gapscope::ranks {

inline constexpr int kTablesSchemaVersion = 2;

// The table names above, without ".csv.gz", in that order.
const std::vector<std::string>& tableNames();

// Writes the six files into `directory` (made if missing), each file into a
// temporary name first and renamed when complete. Throws std::runtime_error
// naming the file on failure.
void writeRankTables(const RankTables& tables, const std::string& directory);

// Reads the six files back (one rank). Throws std::runtime_error naming the
// file, line and column of anything malformed, and for another schema version.
RankTables readRankTables(const std::string& directory);

}  // namespace gapscope::ranks
