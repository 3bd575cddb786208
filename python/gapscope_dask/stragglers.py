"""The straggler analysis of core/src/ranks/stragglers.cpp, split into the
pieces a Dask computation runs: per-rank functions (run on the workers, next
to the rank's tables) and reductions of their small results. Every rule,
number and text is the C++'s; the comments name the C++ function each piece
reproduces. Only plain data (ints, strings, tuples, lists, dicts) travels
between the pieces, so nothing here needs to be importable on a worker
beyond this package (or pickled by value, see pipeline.py).

A rank's "part" (tables.read_rank_part) is a dict:
  rank, world_size, file, step_source, step_name
  steps        [(step, start, time, busy, active, (idle x 4), kernels, launches, collectives, collective_ns,
                 warm_up)]
  collectives  [(step, index, start, dur)]
  kernels      [(name, total_ns)]
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Sequence, Tuple

UNKNOWN_RANK = -1
STRAGGLER_SHARE = 0.05  # kStragglerShare
STRAGGLER_MIN_NS = 10000  # kStragglerMinNs
SPREAD_FACTOR = 3.0  # kStragglerSpreadFactor
SPREAD_MIN_STEPS = 5  # kStragglerSpreadMinSteps
CONSISTENTLY_SLOW_SHARE = 0.10  # kConsistentlySlowShare
USUAL_EXCESS_CAP = 0.25  # kUsualExcessCap
CAUSE_NAMES = ("launch_overhead", "synchronization", "queued", "other")  # gapCauseName
CAUSE_LABELS = ("launch overhead", "synchronisation", "queued", "other")  # gapCauseLabel

# Indexes into a step tuple of a part.
(S_STEP, S_START, S_TIME, S_BUSY, S_ACTIVE, S_IDLE, S_KERNELS, S_LAUNCHES, S_COLLECTIVES, S_COLLECTIVE_NS,
 S_WARM_UP) = range(11)


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


def big_enough(excess: int, median: int, share: float) -> bool:
    """bigEnough: an excess over STRAGGLER_MIN_NS and `share` of the median it exceeds."""
    return excess > STRAGGLER_MIN_NS and float(excess) > share * float(median)


def is_collective_kernel(name: str) -> bool:
    """analysis::isCollectiveName: "nccl" or "gloo" in the name, any case (ASCII)."""
    lowered = name.encode("utf-8", "surrogateescape").lower()
    return b"nccl" in lowered or b"gloo" in lowered


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


def rank_figures(part: dict, rank: int, latest: Dict[Tuple[int, int], int], warm_ups: Sequence[int] = ()) -> dict:
    """Everything the reductions need of one rank, given the latest starts
    and the set's warm-up step numbers (markWarmUpSteps): waitsOf, rankRow,
    and per step what stepRow, extraIdle, causeOf and
    noteMismatchedCollectives read of it."""
    warm = set(warm_ups)

    def left_out(s: tuple) -> bool:  # RankStep::warmUp once marked: its own warm-up or the set's
        return s[S_WARM_UP] or s[S_STEP] in warm

    waits: Dict[int, int] = {}
    for step, index, start, dur in part["collectives"]:
        waits[step] = waits.get(step, 0) + collective_wait(start, dur, latest[(step, index)])
    steps = part["steps"]

    def own_time(s: tuple) -> int:
        return max(0, s[S_TIME] - waits.get(s[S_STEP], 0))

    # rankRow, its warm-up steps left out (all kept when nothing else is left: onlyWarmUps)
    counted = [s for s in steps if not left_out(s)] or list(steps)
    busy = active = collective_ns = collectives = wait_ns = 0
    idle = [0, 0, 0, 0]
    for s in counted:
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
        "counted_steps": len(counted),
        "step_time_ns": lower_median(s[S_TIME] for s in counted),
        "own_time_ns": lower_median(own_time(s) for s in counted),
        # 100 * busyShare (gpu_busy.h): the share first, as the C++ rounds it.
        "gpu_busy_pct": 100.0 * (float(busy) / float(active)) if active > 0 else 0.0,
        "busy_ns": busy,
        "active_ns": active,
        "collective_ns": collective_ns,
        "collective_wait_ns": wait_ns,
        "collective_transfer_ns": collective_ns - wait_ns,
        "collectives": collectives,
        "idle_by_cause_ns": dict(zip(CAUSE_NAMES, idle)),
        "straggling_steps": 0,
        "excess_ns": 0,
        "typical_excess_ns": 0,
        "typical_median_ns": 0,
        "consistently_slow": False,
    }
    # Per step number, findStep's step: (rank, own time, step time, wait or None, idle by cause,
    # busy outside collectives: computeBusy, left out: not judgedStep's).
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
                per_step[number] = (rank, own_time(found), found[S_TIME], waits.get(number), tuple(found[S_IDLE]),
                                    max(0, found[S_BUSY] - found[S_COLLECTIVE_NS]), left_out(found))
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
    """The rank's kernels but its collectives (slowerKernel leaves them out)."""
    return [(name, total) for name, total in part["kernels"] if not is_collective_kernel(name)]


def kernel_totals(part: dict, names: Sequence[str]) -> List[int]:
    """The rank's total of each named kernel (its first row of that name; 0 when it has none)."""
    totals: Dict[str, int] = {}
    for name, total in part["kernels"]:
        totals.setdefault(name, total)
    return [totals.get(name, 0) for name in names]


# ---------------------------------------------------------------- on the client, from the reductions


def step_rows(merged: dict, warm_ups: Sequence[int] = ()) -> List[dict]:
    """stepRow for every step number any rank has, by step number."""
    warm = set(warm_ups)
    rows = []
    for number in sorted(merged["entries"]):
        entries = sorted(merged["entries"][number], key=lambda e: e[0])  # by rank, as the C++ iterates
        if number not in warm:
            entries = [e for e in entries if not e[6]]  # judgedStep
        slowest_rank, slowest_ns, max_wait = UNKNOWN_RANK, 0, 0
        for i, (rank, own, _time, wait, _idle, _busy, _left_out) in enumerate(entries):
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
            "excess_ns": 0,  # judge_steps sets both, once the ranks' typical excess is known
            "straggling": False,
            "warm_up": number in warm,
        })
    return rows


def usual_excess(steps: List[dict]) -> int:
    """usualExcess."""
    judged = [s for s in steps if s["ranks"] > 1 and not s["warm_up"]]
    excesses = [abs(s["excess_ns"]) for s in judged]
    if len(excesses) < SPREAD_MIN_STEPS:
        return 0
    cap = int(USUAL_EXCESS_CAP * float(lower_median(s["median_ns"] for s in judged)))
    return min(lower_median(excesses), cap)


def stands_out(excess: int, usual: int) -> bool:
    """standsOut."""
    return float(excess) > SPREAD_FACTOR * float(usual)


def mark_typical_excess(rows: List[dict], steps: List[dict], merged: dict) -> None:
    """markTypicalExcess: each rank's typical excess over the medians of the steps it shares."""
    by_rank = {row["rank"]: row for row in rows}
    excesses: Dict[int, List[int]] = {rank: [] for rank in by_rank}
    medians: Dict[int, List[int]] = {rank: [] for rank in by_rank}
    for step in steps:  # in step order, as the C++ walks them
        if step["ranks"] < 2 or step["warm_up"]:
            continue
        for entry in merged["entries"][step["step"]]:
            if entry[6]:
                continue
            excesses[entry[0]].append(entry[1] - step["median_ns"])
            medians[entry[0]].append(step["median_ns"])
    for rank, row in by_rank.items():
        row["typical_excess_ns"] = lower_median(excesses[rank])
        row["typical_median_ns"] = lower_median(medians[rank])
        row["consistently_slow"] = (len(excesses[rank]) >= SPREAD_MIN_STEPS and
                                    big_enough(row["typical_excess_ns"], row["typical_median_ns"],
                                               CONSISTENTLY_SLOW_SHARE))


def judge_steps(rows: List[dict], steps: List[dict]) -> int:
    """judgeSteps: the step excesses, which steps straggle; returns the usual excess."""
    by_rank = {row["rank"]: row for row in rows}
    for step in steps:
        if step["ranks"] < 2:
            continue
        slowest = by_rank[step["slowest_rank"]]
        lag = slowest["typical_excess_ns"] if slowest["consistently_slow"] else 0
        step["excess_ns"] = step["slowest_ns"] - step["median_ns"] - lag
    usual = usual_excess(steps)
    for step in steps:
        step["straggling"] = (step["ranks"] > 1 and not step["warm_up"]
                              and big_enough(step["excess_ns"], step["median_ns"], STRAGGLER_SHARE)
                              and stands_out(step["excess_ns"], usual))
    return usual


def mark_stragglers(rows: List[dict], steps: List[dict], merged: dict) -> Tuple[List[int], int]:
    """The ranks' typical excess, the steps' judgement, each rank's
    straggling steps and excess (analyzeRanks); returns the indexes of the
    stragglers in `rows`, most severe first (stable on rank), and the usual
    excess."""
    mark_typical_excess(rows, steps, merged)
    usual = judge_steps(rows, steps)
    by_rank = {row["rank"]: row for row in rows}
    for step in steps:
        if step["straggling"]:
            row = by_rank[step["slowest_rank"]]
            row["straggling_steps"] += 1
            row["excess_ns"] += step["slowest_ns"] - step["median_ns"]
    order = [i for i, row in enumerate(rows) if row["straggling_steps"] > 0 or row["consistently_slow"]]
    order.sort(key=lambda i: (-rows[i]["excess_ns"], -rows[i]["typical_excess_ns"]))  # stable: ties in rank order
    return order, usual


def cause_without_kernel(row: dict, steps: List[dict], merged: dict) -> dict:
    """causeOf up to slowerKernel: worst step, excess, others' waits, extra idle."""
    rank = row["rank"]
    has_straggling_steps = row["straggling_steps"] > 0
    excess, worst, found = 0, 0, False
    others_waited = 0
    for step in steps:
        if step["warm_up"]:
            continue
        slowest = step["slowest_rank"] == rank
        entries = merged["entries"].get(step["step"], ())
        mine = next((e for e in entries if e[0] == rank), None)
        own = mine if mine is not None and not mine[6] else None  # judgedStep
        if slowest and (step["straggling"] or not has_straggling_steps):
            own_wait = mine[3] if mine is not None and mine[3] is not None else 0
            others_waited += merged["wait_totals"].get(step["step"], 0) - own_wait
        if has_straggling_steps and not (slowest and step["straggling"]):
            continue
        if own is None:
            continue
        step_excess = own[1] - step["median_ns"]
        if not found or step_excess > excess:
            found, excess, worst = True, step_excess, step["step"]
    extra = [0, 0, 0, 0]
    extra_busy = 0
    if found:
        # extraIdle and extraBusy: its idle by cause and its busy time outside collectives in the
        # worst step, less the median over the ranks having that step.
        entries = [e for e in merged["entries"][worst] if not e[6]]
        own_entry = next(e for e in entries if e[0] == rank)
        extra = [max(0, own_entry[4][c] - lower_median(e[4][c] for e in entries)) for c in range(4)]
        extra_busy = max(0, own_entry[5] - lower_median(e[5] for e in entries))
    return {
        "rank": rank,
        "worst_step": worst,
        "excess_ns": excess,
        "extra_idle_ns": dict(zip(CAUSE_NAMES, extra)),
        "extra_busy_ns": extra_busy,
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


def _idle_phrase(top: int, extra: int) -> str:
    """idlePhrase."""
    return "its GPU sat idle for %s %s longer than the median rank's" % (CAUSE_LABELS[top], millis(extra))


def cause_phrase(cause: dict) -> str:
    """causePhrase."""
    idle = [cause["extra_idle_ns"][name] for name in CAUSE_NAMES]
    top = 0
    for i in range(1, 4):
        if idle[i] > idle[top]:
            top = i
    if idle[top] > 0 and idle[top] >= cause["extra_busy_ns"]:
        return _idle_phrase(top, idle[top])
    if cause["extra_busy_ns"] > 0:
        s = "its GPU was busy outside collectives %s longer than the median rank's" % millis(cause["extra_busy_ns"])
        if cause["slower_kernel_extra_ns"] > 0:
            s += " (over the trace its kernel %s took %s longer)" % (
                cause["slower_kernel"], millis(cause["slower_kernel_extra_ns"]))
        return s
    return "the time went to CPU work outside its GPU's activity"


def _typically_slower(row: dict) -> str:
    """typicallySlower."""
    s = "consistently slower, %s over the step's median own time" % millis(row["typical_excess_ns"])
    if row["typical_median_ns"] > 0:
        s += " (%d%%)" % (row["typical_excess_ns"] * 100 // row["typical_median_ns"])
    return s + " in a typical step"


NAMED_STEPS_SHOWN = 6


def _named_steps(row: dict, steps: List[dict]) -> List[int]:
    """namedSteps."""
    return [s["step"] for s in steps if s["slowest_rank"] == row["rank"] and not s["warm_up"]
            and (s["straggling"] or row["straggling_steps"] == 0)]


def _step_list(named: List[int]) -> str:
    """stepList."""
    s = ", ".join(str(n) for n in named[:NAMED_STEPS_SHOWN])
    return s + ", ..." if len(named) > NAMED_STEPS_SHOWN else s


def _judged_steps(steps: List[dict]) -> str:
    """judgedSteps."""
    warm_ups = sum(1 for s in steps if s["warm_up"])
    n = len(steps) - warm_ups
    after = "" if warm_ups == 0 else " after the warm-up" if warm_ups == 1 else " after %d warm-up steps" % warm_ups
    return "%d %s%s" % (n, "step" if n == 1 else "steps", after)


def _slowness(row: dict, steps: List[dict]) -> str:
    """slowness."""
    if row["straggling_steps"] == 0:
        return _typically_slower(row)
    s = "straggling in %d of %s (%s)" % (row["straggling_steps"], _judged_steps(steps),
                                         _step_list(_named_steps(row, steps)))
    if row["consistently_slow"]:
        s += ", and " + _typically_slower(row)
    return s


def _wait_clause(cause: dict, row: dict, steps: List[dict]) -> str:
    """waitClause."""
    if row["straggling_steps"] > 0:
        scope = "in that step" if row["straggling_steps"] == 1 else "in those steps"
    else:
        n = len(_named_steps(row, steps))
        if n == 0:
            return ""
        scope = "in the %d %s it was the slowest in" % (n, "step" if n == 1 else "steps")
    return "; the other ranks waited %s for it in collectives %s" % (millis(cause["others_waited_ns"]), scope)


def verdict_of(rows: List[dict], steps: List[dict], stragglers: List[int], causes: List[dict], usual: int) -> str:
    """verdictOf."""
    if not rows:
        return "no ranks"
    counts = "%d %s, %s" % (len(rows), "rank" if len(rows) == 1 else "ranks", _judged_steps(steps))
    if len(rows) == 1:
        return "one rank (" + counts + "): nothing to compare it with"
    if not stragglers:
        v = "no straggler: in no step is the slowest rank's own time over the median rank's by more than 5% and 10 µs"
        if usual > 0:
            v += " and 3 times the steps' usual excess of " + millis(usual)
        return v + ", and no rank is 10% slower in a typical step (" + counts + ")"
    by_rank = {row["rank"]: row for row in rows}
    c = causes[0]
    worst = next(s for s in steps if s["step"] == c["worst_step"])
    v = ("rank %d is the straggler: %s; in step %d it took %s longer than the median rank's "
         "%s, and %s%s") % (
        c["rank"], _slowness(by_rank[c["rank"]], steps), c["worst_step"], millis(c["excess_ns"]),
        millis(worst["median_ns"]), cause_phrase(c), _wait_clause(c, by_rank[c["rank"]], steps))
    for i in range(1, len(stragglers)):
        other = by_rank[stragglers[i]]
        if other["straggling_steps"] == 0:
            how = _typically_slower(other)
        else:
            how = "%d %s%s" % (other["straggling_steps"], "step" if other["straggling_steps"] == 1 else "steps",
                               ", consistently slower" if other["consistently_slow"] else "")
        v += (". Also slow: rank " if i == 1 else "; rank ") + "%d (%s; %s)" % (other["rank"], how,
                                                                             cause_phrase(causes[i]))
    return v
