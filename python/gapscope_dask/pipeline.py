"""The Dask computation: the workers export each rank's tables with
`gapscope-cli export-tables`, read them next to where they were written,
and the straggler analysis (stragglers.py) runs as maps over the ranks and
tree reductions of their small results. Dask does all the scheduling and
data movement; nothing here opens a socket of its own.

What runs where:
  workers  export_rank (a gapscope-cli subprocess per rank), load_part (pandas
           reads the rank's CSVs; the part stays in the worker's memory),
           the per-rank maps (collective starts, rank figures, kernel totals)
           and the tree reductions (merge_latest, merge_steps)
  client   the file list, the rank numbering (a (rank, file) pair per
           rank), the step rows, straggler order, verdict and the JSON
"""

from __future__ import annotations

import fnmatch
import os
import shutil
import subprocess
from typing import Dict, List, Optional, Sequence

from . import notes as N
from . import stragglers as S
from .tables import read_rank_part

FAN_IN = 8  # parts merged by one reduction task


# ---------------------------------------------------------------- files and paths (client)


def _matches(pattern: str) -> List[str]:
    """A pattern's wildcards in its last component only, as fnmatch(3)
    without flags matches them (a leading dot is matched by * too)."""
    parent, name = os.path.split(pattern)
    directory = parent or "."
    if not os.path.isdir(directory):
        return []
    name = name.replace("[^", "[!")  # glibc's negation; Python's fnmatch knows only [!
    return [os.path.join(parent, entry) if parent else entry for entry in os.listdir(directory)
            if os.path.isfile(os.path.join(directory, entry)) and fnmatch.fnmatchcase(entry, name)]


def rank_files(arguments: Sequence[str]) -> List[str]:
    """The trace files the arguments name, as `gapscope-cli ranks` takes
    them (ranks::rankFiles): a directory contributes its *.json and
    *.json.gz files (not recursively), a pattern with * ? or [ the files it
    matches, a file itself; sorted (bytes), duplicates removed. Raises
    FileNotFoundError naming an argument that matched nothing."""
    files = set()
    for argument in arguments:
        if os.path.isdir(argument):
            found = [os.path.join(argument, name) for name in os.listdir(argument)
                     if (name.endswith(".json") or name.endswith(".json.gz"))
                     and os.path.isfile(os.path.join(argument, name))]
        elif any(c in argument for c in "*?["):
            found = _matches(argument)
        elif os.path.exists(argument):
            found = [argument]
        else:
            raise FileNotFoundError("%s: cannot open: No such file or directory" % argument)
        if not found:
            raise FileNotFoundError("%s: no trace files (.json, .json.gz) %s"
                                    % (argument, "there" if os.path.isdir(argument) else "match"))
        files.update(found)
    return sorted(files, key=lambda path: path.encode("utf-8", "surrogateescape"))  # std::string's order


def table_dir_names(files: Sequence[str]) -> List[str]:
    """The directory of each rank's tables under --tables-dir: the file's
    name without .json / .json.gz; "~2", "~3", ... added when two files
    share a name (run1/rank-0.json, run2/rank-0.json)."""
    used = set()
    names = []
    for path in files:
        base = os.path.basename(path)
        for suffix in (".json.gz", ".json"):
            if base.endswith(suffix):
                base = base[: -len(suffix)]
                break
        name, k = base, 2
        while name in used:
            name, k = "%s~%d" % (base, k), k + 1
        used.add(name)
        names.append(name)
    return names


def find_cli(given: Optional[str] = None) -> str:
    """--cli, else $GAPSCOPE_CLI, else gapscope-cli on PATH (left to the
    workers' PATH when the client has none)."""
    path = given or os.environ.get("GAPSCOPE_CLI") or shutil.which("gapscope-cli") or "gapscope-cli"
    return os.path.abspath(path) if os.sep in path else path


# ---------------------------------------------------------------- on the workers


EXPORT_PREFIX = "gapscope-cli export-tables: "
WARNING_PREFIX = EXPORT_PREFIX + "warning: "


def split_stderr(stderr: str):
    """(warnings, message) of export-tables' stderr: its "warning: " lines,
    and the rest without the command's prefix (the text `ranks` shows as
    the error of that file)."""
    warnings, rest = [], []
    for line in stderr.splitlines():
        if line.startswith(WARNING_PREFIX):
            warnings.append(line[len(WARNING_PREFIX):])
        elif line.strip():
            rest.append(line[len(EXPORT_PREFIX):] if line.startswith(EXPORT_PREFIX) else line)
    return warnings, "\n".join(rest)


def export_rank(cli: str, trace: str, out_dir: str, cwd: Optional[str]) -> dict:
    """`gapscope-cli export-tables TRACE -o OUT_DIR` on this worker. `trace`
    is passed as given (the tables' `file` column keeps it), run from the
    client's working directory when this machine has it. Returns
    {"error": message or None, "warnings": [...], "tables": dir, "worker": address}."""
    try:
        from distributed import get_worker

        worker = get_worker().address
    except (ImportError, ValueError):
        worker = None
    run_dir = cwd if cwd and os.path.isdir(cwd) else None
    try:
        proc = subprocess.run([cli, "export-tables", trace, "-o", out_dir], cwd=run_dir,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as error:
        return {"error": "%s: %s" % (cli, error.strerror or error), "warnings": [], "worker": worker}
    warnings, message = split_stderr(proc.stderr.decode("utf-8", "replace"))
    if proc.returncode != 0:
        return {"error": message or "%s exited with status %d" % (cli, proc.returncode), "warnings": warnings,
                "worker": worker}
    return {"error": None, "warnings": warnings, "tables": os.path.join(run_dir or os.getcwd(), out_dir),
            "worker": worker}


def load_part(directory: str) -> dict:
    return read_rank_part(directory)


# ---------------------------------------------------------------- the computation (client side of it)


def tree_reduce(client, func, futures: List, fan_in: int = FAN_IN):
    """func over all futures, FAN_IN at a time, on the workers; one future."""
    while len(futures) > 1:
        futures = [client.submit(func, *futures[i:i + fan_in]) for i in range(0, len(futures), fan_in)]
    return futures[0]


def export_and_load(client, files: Sequence[str], cli: str, tables_dir: str):
    """Exports and loads every rank. Returns ([part future or None] in file
    order, {file index: error message}, {file index: [warnings]})."""
    from distributed import as_completed

    tables_dir = os.path.abspath(tables_dir)
    cwd = os.getcwd()
    out_dirs = [os.path.join(tables_dir, name) for name in table_dir_names(files)]
    exports = client.map(export_rank, [cli] * len(files), list(files), out_dirs, [cwd] * len(files), pure=False)
    index_of = {future.key: i for i, future in enumerate(exports)}
    parts: List = [None] * len(files)
    errors: Dict[int, str] = {}
    warnings: Dict[int, List[str]] = {}
    for future in as_completed(exports):
        i = index_of[future.key]
        try:
            result = future.result()
        except Exception as error:  # the task itself failed (e.g. the worker died)
            errors[i] = str(error) or type(error).__name__
            continue
        if result["error"] is not None:
            errors[i] = result["error"]
            continue
        warnings[i] = result["warnings"]  # `ranks` warns only of the ranks it kept
        # Read where it was written: the tables need no shared filesystem.
        parts[i] = client.submit(load_part, result["tables"], pure=False,
                                 workers=[result["worker"]] if result["worker"] else None,
                                 allow_other_workers=True)
    for i, part in enumerate(parts):
        if part is None:
            continue
        try:
            part.result()
        except Exception as error:
            errors[i] = str(error) or type(error).__name__
            parts[i] = None
            warnings.pop(i, None)
    return parts, errors, warnings


def analyze_parts(client, parts: Sequence) -> dict:
    """analyzeRanks over the rank parts (futures, in file order) as a Dask
    computation. Returns the `ranks` JSON document up to its "notes"."""
    idents = client.gather(client.map(S.part_ident, list(parts))) if parts else []
    kept, notes = S.unique_ranks(idents)
    kept_parts = [parts[i] for i, _ in kept]
    ranks = [rank for _, rank in kept]
    rows: List[dict] = []
    steps: List[dict] = []
    stragglers: List[int] = []
    causes: List[dict] = []
    usual = 0
    step_mark = ""
    if kept_parts:
        marks = client.gather(client.map(N.part_steps, kept_parts))  # by rank, as kept is
        warm_ups, rank_only, only_warm = N.warm_ups_of(ranks, [steps for _mark, steps in marks])
        latest = tree_reduce(client, S.merge_latest, client.map(S.collective_starts, kept_parts))
        figures = client.map(S.rank_figures, kept_parts, ranks, latest=latest, warm_ups=warm_ups)
        rows = client.gather(client.map(S.figures_row, figures))  # by rank, as kept is
        merged = tree_reduce(client, S.merge_steps, client.map(S.figures_steps, figures)).result()
        steps = S.step_rows(merged, warm_ups)
        order, usual = S.mark_stragglers(rows, steps, merged)
        stragglers = [rows[i]["rank"] for i in order]
        causes = [S.cause_without_kernel(rows[i], steps, merged) for i in order]
        if order:
            kernel_lists = client.gather([client.submit(S.kernel_list, kept_parts[i]) for i in order])
            names = sorted({name for kernels in kernel_lists for name, _ in kernels})
            totals = client.gather(client.map(S.kernel_totals, kept_parts, names=names))
            medians = {name: S.lower_median(t[j] for t in totals) for j, name in enumerate(names)}
            for cause, kernels in zip(causes, kernel_lists):
                S.apply_slower_kernel(cause, kernels, medians)
        note = N.mismatched_collectives_note(merged)
        if note:
            notes.append(note)
        notes += N.warm_up_notes(steps, rank_only, only_warm)
        rank_marks = [(rank, mark) for rank, (mark, _numbers) in zip(ranks, marks)]
        note = N.mixed_step_marks_note(rank_marks)
        if note:
            notes.append(note)
        step_mark = N.common_step_mark(rank_marks)
    return {
        "ranks": rows,
        "steps": steps,
        "usual_excess_ns": usual,
        "step_mark": step_mark,
        "stragglers": stragglers,
        "causes": causes,
        "verdict": S.verdict_of(rows, steps, stragglers, causes, usual),
        "notes": notes,
    }


def analyze_files(client, files: Sequence[str], cli: str, tables_dir: str) -> dict:
    """The whole `ranks` document for these trace files (empty "ranks" when
    no rank could be read, where `gapscope-cli ranks` prints no document)."""
    parts, errors, warnings = export_and_load(client, files, cli, tables_dir)
    doc = analyze_parts(client, [p for p in parts if p is not None])
    doc["warnings"] = [w for i in sorted(warnings) for w in warnings[i]]
    doc["errors"] = [{"file": files[i], "message": errors[i]} for i in sorted(errors)]
    return doc


def analyze_tables(client, table_dirs: Sequence[str]) -> dict:
    """The `ranks` document from tables exported earlier (one directory per
    rank), without running gapscope-cli."""
    parts = client.map(load_part, [os.path.abspath(d) for d in table_dirs], pure=False)
    kept, errors = [], []
    for directory, part in zip(table_dirs, parts):
        try:
            part.result()
            kept.append(part)
        except Exception as error:
            errors.append({"file": directory, "message": str(error)})
    doc = analyze_parts(client, kept)
    doc["warnings"] = []
    doc["errors"] = errors
    return doc
