"""gapscope_dask: `gapscope-cli ranks` over many machines with Dask.

The workers run `gapscope-cli export-tables` on the rank traces where the
files are, read each rank's tables (gzip CSV) with pandas, and the straggler
analysis of core/src/ranks/stragglers.cpp runs as Dask maps and reductions
over them. The result is the JSON `gapscope-cli ranks --format json` prints,
byte for byte. docs/ranks.md, "Beyond one machine: Dask".

    python3 -m gapscope_dask [--scheduler tcp://HOST:PORT] [--workers N]
        [--cli PATH] [--tables-dir DIR] [--format json|text] TRACE_OR_DIR...
"""

from .jsonout import dumps
from .pipeline import analyze_files, analyze_parts, analyze_tables, find_cli, rank_files

__all__ = ["analyze_files", "analyze_parts", "analyze_tables", "dumps", "find_cli", "rank_files"]
