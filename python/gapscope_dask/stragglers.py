"""The straggler analysis of core/src/ranks/stragglers.cpp, split into the
pieces a Dask computation runs: per-rank functions (run on the workers, next
to the rank's tables) and reductions of their small results. Every rule,
number and text is the C++'s; the comments name the C++ function each piece
reproduces. Only plain data (ints, strings, tuples, lists, dicts) travels
between the pieces, so nothing here needs to be importable on a worker
beyond this package (or pickled by value, see pipeline.py).

A rank's "part" (tables.read_rank_part) is a dict:
  rank, world_size, file, step_source
  steps        [(step, start, time, busy, active, (idle x 4), kernels, launches, collectives, collective_ns)]
  collectives  [(step, index, start, dur)]
  kernels      [(name, total_ns)]
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Sequence, Tuple

UNKNOWN_RANK = -1
STRAGGLER_SHARE = 0.05  # kStragglerShare
STRAGGLER_MIN_NS = 10000  # kStragglerMinNs
CAUSE_NAMES = ("launch_overhead", "synchronization", "queued", "other")  # gapCauseName
CAUSE_LABELS = ("launch overhead", "synchronisation", "queued", "other")  # gapCauseLabel

# Indexes into a step tuple of a part.
S_STEP, S_START, S_TIME, S_BUSY, S_ACTIVE, S_IDLE, S_KERNELS, S_LAUNCHES, S_COLLECTIVES, S_COLLECTIVE_NS = range(10)


def lower_median(values: Iterable[int]) -> int:
    """lowerMedian: sorted[(n - 1) // 2], 0 for none."""
    ordered = sorted(values)
    return ordered[(len(ordered) - 1) // 2] if ordered else 0


def millis(ns: int) -> str:
    """millis: "%.3f ms" of ns / 1e6 as a double (both round correctly)."""
    return "%.3f ms" % (float(ns) / 1e6)


def collective_wait(start: int, dur: int, latest_start: int) -> int:
    """collectiveWait: clamp(latest_start - start, 0, max(dur, 0))."""
    return min(max(latest_start - start, 0), max(dur, 0))


def exceeds_median(value: int, median: int) -> bool:
    """exceedsMedian."""
    excess = value - median
    return excess > STRAGGLER_MIN_NS and float(excess) > STRAGGLER_SHARE * float(median)


# ---------------------------------------------------------------- on the client


def unique_ranks(idents: Sequence[Tuple[int, str]]):
    """uniqueRanks over (rank, file) of the parts in input (file) order.

    Returns ([(part index, rank)] by rank, notes): each rank once (a later
    copy left out), pid-N files (processes without RANK) left out, unknown
    ranks numbered after the known ones."""
    order = sorted(range(len(idents)), key=lambda i: idents[i][0])  # stable
    taken = set()
    kept: List[Tuple[int, int]] = []
    unknown: List[int] = []
    notes: List[str] = []
    for i in order:
        rank, file = idents[i]
        if rank == UNKNOWN_RANK and file.rsplit("/", 1)[-1].startswith("pid-"):
            notes.append("%s: a process without a rank (RANK was not set), left out" % file)
        elif rank == UNKNOWN_RANK:
            unknown.append(i)
        elif rank in taken:
            notes.append("rank %d given twice: %s left out" % (rank, file))
        else:
            taken.add(rank)
            kept.append((i, rank))
    next_rank = 0
    for i in unknown:
        while next_rank in taken:
            next_rank += 1
        notes.append("%s names no rank: taken as rank %d" % (idents[i][1], next_rank))
        kept.append((i, next_rank))
        taken.add(next_rank)
    kept.sort(key=lambda item: item[1])
    return kept, notes


# ---------------------------------------------------------------- per rank (workers)


def part_ident(part: dict) -> Tuple[int, str]:
    return part["rank"], part["file"]


def collective_starts(part: dict) -> Dict[Tuple[int, int], int]:
    """One rank's share of latestStarts: (step, index) -> its latest start."""
    latest: Dict[Tuple[int, int], int] = {}
    for step, index, start, _dur in part["collectives"]:
        key = (step, index)
        old = latest.get(key)
        latest[key] = start if old is None else max(old, start)
    return latest


def merge_latest(*shares: Dict[Tuple[int, int], int]) -> Dict[Tuple[int, int], int]:
    """The reduction of latestStarts: the latest start of each collective over all ranks."""
    merged: Dict[Tuple[int, int], int] = {}
    for share in shares:
        for key, start in share.items():
            old = merged.get(key)
            merged[key] = start if old is None or start > old else old
    return merged


def _find_step(steps: Sequence[tuple], number: int) -> Optional[tuple]:
    """findStep: the first step of that number (steps are in step order)."""
    lo, hi = 0, len(steps)
    while lo < hi:
        mid = (lo + hi) // 2
        if steps[mid][S_STEP] < number:
            lo = mid + 1
        else:
            hi = mid
    return steps[lo] if lo < len(steps) and steps[lo][S_STEP] == number else None


def rank_figures(part: dict, rank: int, latest: Dict[Tuple[int, int], int]) -> dict:
    """Everything the reductions need of one rank, given the latest starts:
    waitsOf, rankRow, and per step what stepRow, extraIdle, causeOf and
    noteMismatchedCollectives read of it."""
    waits: Dict[int, int] = {}
    for step, index, start, dur in part["collectives"]:
        waits[step] = waits.get(step, 0) + collective_wait(start, dur, latest[(step, index)])
    steps = part["steps"]

    def own_time(s: tuple) -> int:
        return max(0, s[S_TIME] - waits.get(s[S_STEP], 0))

    # rankRow
    busy = active = collective_ns = collectives = wait_ns = 0
    idle = [0, 0, 0, 0]
    for s in steps:
        busy += s[S_BUSY]
        active += s[S_ACTIVE]
        for c in range(4):
            idle[c] += s[S_IDLE][c]
        collective_ns += s[S_COLLECTIVE_NS]
        collectives += s[S_COLLECTIVES]
        wait_ns += waits.get(s[S_STEP], 0)
    row = {
        "rank": rank,
        "file": part["file"],
        "steps": len(steps),
        "step_time_ns": lower_median(s[S_TIME] for s in steps),
        "own_time_ns": lower_median(own_time(s) for s in steps),
        "gpu_busy_pct": 100.0 * float(busy) / float(active) if active > 0 else 0.0,
        "busy_ns": busy,
        "active_ns": active,
        "collective_ns": collective_ns,
        "collective_wait_ns": wait_ns,
        "collective_transfer_ns": collective_ns - wait_ns,
        "collectives": collectives,
        "idle_by_cause_ns": dict(zip(CAUSE_NAMES, idle)),
        "straggling_steps": 0,
        "excess_ns": 0,
    }
    # Per step number: (rank, own time, step time, wait or None, idle by cause), findStep's step.
    per_step: Dict[int, tuple] = {}
    counts: Dict[int, int] = {}
    for step, _index, _start, _dur in part["collectives"]:
        counts[step] = counts.get(step, 0) + 1
    collective_counts: Dict[int, int] = {}
    for s in steps:
        number = s[S_STEP]
        collective_counts[number] = counts.get(number, 0)
        if number not in per_step:
            found = _find_step(steps, number)
            if found is not None:
                per_step[number] = (rank, own_time(found), found[S_TIME], waits.get(number), tuple(found[S_IDLE]))
    return {"row": row, "per_step": per_step, "waits": waits, "collective_counts": collective_counts}


def figures_row(figures: dict) -> dict:
    return figures["row"]


def figures_steps(figures: dict) -> dict:
    """A rank's share of the step reduction."""
    return {
        "entries": {step: [entry] for step, entry in figures["per_step"].items()},
        "wait_totals": dict(figures["waits"]),
        "collective_counts": {step: {count} for step, count in figures["collective_counts"].items()},
    }


def merge_steps(*shares: dict) -> dict:
    """The reduction over ranks, per step: each rank's entry, the summed
    waits (for others_waited_ns) and the set of collective counts (for the
    mismatched-collectives note)."""
    entries: Dict[int, list] = {}
    wait_totals: Dict[int, int] = {}
    counts: Dict[int, set] = {}
    for share in shares:
        for step, values in share["entries"].items():
            entries.setdefault(step, []).extend(values)
        for step, wait in share["wait_totals"].items():
            wait_totals[step] = wait_totals.get(step, 0) + wait
        for step, values in share["collective_counts"].items():
            counts.setdefault(step, set()).update(values)
    return {"entries": entries, "wait_totals": wait_totals, "collective_counts": counts}


def kernel_list(part: dict) -> List[Tuple[str, int]]:
    return list(part["kernels"])


def kernel_totals(part: dict, names: Sequence[str]) -> List[int]:
    """The rank's total of each named kernel (its first row of that name; 0 when it has none)."""
    totals: Dict[str, int] = {}
    for name, total in part["kernels"]:
        totals.setdefault(name, total)
    return [totals.get(name, 0) for name in names]


# ---------------------------------------------------------------- on the client, from the reductions


def step_rows(merged: dict) -> List[dict]:
    """stepRow for every step number any rank has, by step number."""
    rows = []
    for number in sorted(merged["entries"]):
        entries = sorted(merged["entries"][number], key=lambda e: e[0])  # by rank, as the C++ iterates
        slowest_rank, slowest_ns, max_wait = UNKNOWN_RANK, 0, 0
        for i, (rank, own, _time, wait, _idle) in enumerate(entries):
            if i == 0 or own > slowest_ns:
                slowest_rank, slowest_ns = rank, own
            if wait is not None:
                max_wait = max(max_wait, wait)
        median = lower_median(e[1] for e in entries)
        rows.append({
            "step": number,
            "ranks": len(entries),
            "slowest_rank": slowest_rank,
            "slowest_ns": slowest_ns,
            "median_ns": median,
            "step_time_median_ns": lower_median(e[2] for e in entries),
            "max_wait_ns": max_wait,
            "straggling": len(entries) > 1 and exceeds_median(slowest_ns, median),
        })
    return rows


def mark_stragglers(rows: List[dict], steps: List[dict]) -> List[int]:
    """Counts each rank's straggling steps and excess; returns the indexes of
    the straggling ranks in `rows`, most severe first (stable on rank)."""
    by_rank = {row["rank"]: row for row in rows}
    for step in steps:
        if step["straggling"]:
            row = by_rank[step["slowest_rank"]]
            row["straggling_steps"] += 1
            row["excess_ns"] += step["slowest_ns"] - step["median_ns"]
    order = [i for i, row in enumerate(rows) if row["straggling_steps"] > 0]
    order.sort(key=lambda i: -rows[i]["excess_ns"])  # stable: equal excess in rank order
    return order


def cause_without_kernel(rank: int, steps: List[dict], merged: dict) -> dict:
    """causeOf up to slowerKernel: worst step, excess, others' waits, extra idle."""
    excess, worst = 0, 0
    others_waited = 0
    for step in steps:
        if not step["straggling"] or step["slowest_rank"] != rank:
            continue
        step_excess = step["slowest_ns"] - step["median_ns"]
        if step_excess > excess:
            excess, worst = step_excess, step["step"]
        own_wait = 0
        for entry in merged["entries"].get(step["step"], ()):
            if entry[0] == rank and entry[3] is not None:
                own_wait = entry[3]
        others_waited += merged["wait_totals"].get(step["step"], 0) - own_wait
    # extraIdle: its idle by cause in the worst step less the median over the ranks having that step.
    entries = merged["entries"][worst]
    own_idle = next(e[4] for e in entries if e[0] == rank)
    extra = [max(0, own_idle[c] - lower_median(e[4][c] for e in entries)) for c in range(4)]
    return {
        "rank": rank,
        "worst_step": worst,
        "excess_ns": excess,
        "extra_idle_ns": dict(zip(CAUSE_NAMES, extra)),
        "slower_kernel": "",
        "slower_kernel_extra_ns": 0,
        "others_waited_ns": others_waited,
    }


def apply_slower_kernel(cause: dict, kernels: Sequence[Tuple[str, int]], medians: Dict[str, int]) -> None:
    """slowerKernel: the straggler's kernel furthest above the median rank's
    total of that name (ties: the lower name; none when no kernel is slower)."""
    best_name, best_extra = "", 0
    # Python orders str by code point, which is std::string's byte order for UTF-8.
    for name, total in kernels:
        extra = total - medians[name]
        if extra > best_extra or (extra == best_extra and extra > 0 and name < best_name):
            best_name, best_extra = name, extra
    cause["slower_kernel"] = best_name
    cause["slower_kernel_extra_ns"] = best_extra


def cause_phrase(cause: dict) -> str:
    """causePhrase."""
    idle = [cause["extra_idle_ns"][name] for name in CAUSE_NAMES]
    top = 0
    for i in range(1, 4):
        if idle[i] > idle[top]:
            top = i
    if idle[top] > 0:
        return "its GPU sat idle for %s %s longer than the median rank's" % (CAUSE_LABELS[top], millis(idle[top]))
    if cause["slower_kernel_extra_ns"] > 0:
        return "its kernel %s took %s longer than the median rank's" % (
            cause["slower_kernel"], millis(cause["slower_kernel_extra_ns"]))
    return "the time went to CPU work outside its GPU's activity"


def verdict_of(rows: List[dict], steps: List[dict], stragglers: List[int], causes: List[dict]) -> str:
    """verdictOf."""
    if not rows:
        return "no ranks"
    counts = "%d %s, %d %s" % (len(rows), "rank" if len(rows) == 1 else "ranks",
                               len(steps), "step" if len(steps) == 1 else "steps")
    if len(rows) == 1:
        return "one rank (" + counts + "): nothing to compare it with"
    if not stragglers:
        return "no straggler: in every step every rank's own time is within 5% (or 10 us) of the median rank's (" + counts + ")"
    by_rank = {row["rank"]: row for row in rows}
    c = causes[0]
    row = by_rank[c["rank"]]
    worst = next(s for s in steps if s["step"] == c["worst_step"])
    v = ("rank %d is the straggler: slowest in %d of %d steps; in step %d it took %s longer than the median rank's "
         "%s, and %s; the other ranks waited %s for it in collectives") % (
        c["rank"], row["straggling_steps"], len(steps), c["worst_step"], millis(c["excess_ns"]),
        millis(worst["median_ns"]), cause_phrase(c), millis(c["others_waited_ns"]))
    for i in range(1, len(stragglers)):
        other = by_rank[stragglers[i]]
        v += (". Also slow: rank " if i == 1 else ", rank ") + "%d (%d %s" % (
            other["rank"], other["straggling_steps"], "step)" if other["straggling_steps"] == 1 else "steps)")
    return v


def mismatched_collectives_note(merged: dict) -> Optional[str]:
    """noteMismatchedCollectives."""
    mismatched = sum(1 for counts in merged["collective_counts"].values() if len(counts) > 1)
    if mismatched > 0:
        return ("in %d %s the ranks ran different numbers of collectives: waits there pair the k-th of each rank"
                % (mismatched, "step" if mismatched == 1 else "steps"))
    return None
