"""Reading the rank tables that `gapscope-cli export-tables` writes
(core/include/gapscope/ranks/tables_csv.h, docs/ranks.md): one directory per
rank, gzip CSV with a header row, integer nanoseconds, schema version 2.
Runs on the worker that holds the directory."""

from __future__ import annotations

import os
from typing import Dict, List, Sequence

SCHEMA_VERSION = 2

# Columns this package reads, and those of them that are text (the rest are integers).
COLUMNS: Dict[str, Sequence[str]] = {
    "meta": ("schema_version", "rank", "world_size", "file", "step_source", "step_name"),
    "steps": ("rank", "step", "start_ns", "time_ns", "busy_ns", "active_ns", "idle_launch_overhead_ns",
              "idle_synchronization_ns", "idle_queued_ns", "idle_other_ns", "kernels", "launches",
              "collectives", "collective_ns", "warm_up"),
    "collectives": ("rank", "step", "index", "name", "cpu_op", "device", "stream", "start_ns", "dur_ns"),
    "kernels": ("rank", "name", "calls", "total_ns"),
}
TEXT_COLUMNS = {"file", "step_source", "step_name", "name", "cpu_op"}
# Written by export-tables as well, not needed by the straggler analysis.
OTHER_TABLES = ("ops", "gaps")


class TablesError(RuntimeError):
    pass


def _read(directory: str, table: str, check_columns: bool = True):
    import pandas as pd  # on the worker

    path = os.path.join(directory, table + ".csv.gz")
    columns = COLUMNS[table]
    try:
        frame = pd.read_csv(path, compression="gzip", header=0, keep_default_na=False, na_filter=False,
                            dtype={c: (str if c in TEXT_COLUMNS else "int64") for c in columns},
                            encoding="utf-8", encoding_errors="replace")
    except Exception as error:  # pandas raises many kinds; all mean a bad file here
        raise TablesError("%s: %s" % (path, error)) from None
    if check_columns:
        _check_columns(frame, path, columns)
    return frame


def _check_columns(frame, path: str, columns: Sequence[str]) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise TablesError("%s: no column %s" % (path, ", ".join(missing)))


def _column(frame, name) -> List:
    return frame[name].tolist()  # Python ints and strs, not numpy scalars


def read_rank_part(directory: str) -> dict:
    """The part of one rank that the straggler analysis needs (stragglers.py
    describes it). Raises TablesError naming the file for anything malformed."""
    # The version first: another version's tables have other columns, which it explains.
    meta_path = os.path.join(directory, "meta.csv.gz")
    meta = _read(directory, "meta", check_columns=False)
    _check_columns(meta, meta_path, ("schema_version",))
    if len(meta) != 1:
        raise TablesError("%s: %d rows, expected 1" % (meta_path, len(meta)))
    version = int(meta["schema_version"].iloc[0])
    if version != SCHEMA_VERSION:
        raise TablesError("%s: schema version %d, this reader knows %d (export the tables again)"
                          % (meta_path, version, SCHEMA_VERSION))
    _check_columns(meta, meta_path, COLUMNS["meta"])
    steps = _read(directory, "steps")
    collectives = _read(directory, "collectives")
    kernels = _read(directory, "kernels")
    for table in OTHER_TABLES:
        path = os.path.join(directory, table + ".csv.gz")
        if not os.path.exists(path):
            raise TablesError("%s: missing" % path)
    idle = zip(*(_column(steps, c) for c in ("idle_launch_overhead_ns", "idle_synchronization_ns",
                                               "idle_queued_ns", "idle_other_ns")))
    warm_up = _column(steps, "warm_up")
    if any(w not in (0, 1) for w in warm_up):
        raise TablesError("%s: warm_up is not 0 or 1" % os.path.join(directory, "steps.csv.gz"))
    step_rows = [
        (step, start, time, busy, active, tuple(idle_row), k, launches, colls, coll_ns, warm == 1)
        for step, start, time, busy, active, idle_row, k, launches, colls, coll_ns, warm in zip(
            _column(steps, "step"), _column(steps, "start_ns"), _column(steps, "time_ns"),
            _column(steps, "busy_ns"), _column(steps, "active_ns"), idle, _column(steps, "kernels"),
            _column(steps, "launches"), _column(steps, "collectives"), _column(steps, "collective_ns"), warm_up)
    ]
    return {
        "rank": int(meta["rank"].iloc[0]),
        "world_size": int(meta["world_size"].iloc[0]),
        "file": str(meta["file"].iloc[0]),
        "step_source": str(meta["step_source"].iloc[0]),
        "step_name": str(meta["step_name"].iloc[0]),
        "steps": step_rows,
        "collectives": list(zip(_column(collectives, "step"), _column(collectives, "index"),
                                _column(collectives, "start_ns"), _column(collectives, "dur_ns"))),
        "kernels": list(zip(_column(kernels, "name"), _column(kernels, "total_ns"))),
    }
