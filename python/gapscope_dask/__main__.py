"""python3 -m gapscope_dask [--scheduler tcp://HOST:PORT] [--workers N] [--cli PATH]
                           [--tables-dir DIR] [--format json|text] TRACE_OR_DIR...

`gapscope-cli ranks` with the ranks spread over Dask workers: a LocalCluster
of N worker processes (one thread each) unless --scheduler names a running
Dask scheduler. Prints what `gapscope-cli ranks --format FORMAT` prints."""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import tempfile

from .jsonout import dumps
from .pipeline import analyze_files, find_cli, rank_files
from .text import render_text

PROG = "gapscope_dask"


def _remove_tree(path: str) -> None:
    shutil.rmtree(path, ignore_errors=True)


def _client(args):
    from distributed import Client, LocalCluster

    if args.scheduler:
        # The workers of a cluster need dask, pandas and gapscope-cli, not
        # this package: its functions travel with the tasks.
        import cloudpickle

        from . import jsonout, pipeline, stragglers, tables, text

        if hasattr(cloudpickle, "register_pickle_by_value"):
            # Each module by name: distributed's pickler asks for the module
            # of the function itself, not its package.
            for module in (jsonout, pipeline, stragglers, tables, text):
                cloudpickle.register_pickle_by_value(module)
        return None, Client(args.scheduler)
    cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                           dashboard_address=":0", silence_logs=logging.CRITICAL)
    return cluster, Client(cluster)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m gapscope_dask",
        description="Find the straggler of a distributed run, the ranks spread over Dask workers "
                    "(the output of `gapscope-cli ranks`).")
    parser.add_argument("paths", nargs="+", metavar="TRACE_OR_DIR",
                        help="rank trace files, directories (their *.json and *.json.gz) or patterns")
    parser.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://HOST:PORT); "
                                            "default: a LocalCluster on this machine")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster worker processes (default 2)")
    parser.add_argument("--cli", help="gapscope-cli on the workers (default: $GAPSCOPE_CLI, else PATH)")
    parser.add_argument("--tables-dir", help="where the workers write each rank's tables (kept); "
                                             "default: a temporary directory, removed at the end")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    try:
        files = rank_files(args.paths)
    except OSError as error:
        print("%s: %s" % (PROG, error), file=sys.stderr)
        return 1
    cli = find_cli(args.cli)
    tables_dir = args.tables_dir or tempfile.mkdtemp(prefix="gapscope-tables-")
    cluster, client = _client(args)
    try:
        doc = analyze_files(client, files, cli, tables_dir)
    finally:
        if not args.tables_dir:
            if args.scheduler:
                try:
                    client.run(_remove_tree, os.path.abspath(tables_dir))
                except Exception:  # best effort: a worker gone since
                    pass
            _remove_tree(tables_dir)
        client.close()
        if cluster is not None:
            cluster.close()
    # As `gapscope-cli ranks`: problems on stderr, no document when no rank could be read.
    for warning in doc["warnings"]:
        print("%s: warning: %s" % (PROG, warning), file=sys.stderr)
    for error in doc["errors"]:
        print("%s: %s: %s" % (PROG, error["file"], error["message"]), file=sys.stderr)
    if not doc["ranks"]:
        print("%s: no rank could be read" % PROG, file=sys.stderr)
        return 1
    sys.stdout.flush()
    if args.format == "json":
        sys.stdout.buffer.write((dumps(doc) + "\n").encode("utf-8", "surrogateescape"))
    else:
        sys.stdout.buffer.write(render_text(doc))
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
