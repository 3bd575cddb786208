"""What the set of ranks is before any rank is judged, as notes and
warm-up steps: the part of core/src/ranks/rank_set_notes.cpp the Dask path
computes on the client from small per-rank results (part_steps runs on the
workers). Every text and rule is the C++'s; the comments name its function."""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from .stragglers import S_STEP, S_WARM_UP, lower_median, millis


def step_mark(part: dict) -> str:
    """stepMarkOf: what the rank's steps are, in words."""
    if part["step_source"] == "profiler_step":
        return "ProfilerStep#N"
    if part["step_source"] == "annotation":
        return "each %s to the next" % part["step_name"]
    return "the whole trace"


def part_steps(part: dict) -> Tuple[str, List[Tuple[int, bool]]]:
    """What the client needs of a rank's steps: its step mark and each step's number and warm-up flag."""
    return step_mark(part), [(s[S_STEP], s[S_WARM_UP]) for s in part["steps"]]


def warm_ups_of(ranks: Sequence[int], steps_of_ranks: Sequence[List[Tuple[int, bool]]]):
    """markWarmUpSteps: (the set's warm-up step numbers, {step: [ranks]} of a
    rank's own warm-up that most ranks do not share, [ranks with nothing but
    warm-ups]), over the ranks' part_steps in rank order."""
    counts: Dict[int, List[int]] = {}
    for steps in steps_of_ranks:
        for number, warm in steps:
            c = counts.setdefault(number, [0, 0])
            c[0] += 1 if warm else 0
            c[1] += 1
    of_set = {number for number, (warm, having) in counts.items() if warm > 0 and 2 * warm >= having}
    rank_only: Dict[int, List[int]] = {}
    only_warm: List[int] = []
    for rank, steps in zip(ranks, steps_of_ranks):
        for number, warm in steps:
            if warm and number not in of_set:
                rank_only.setdefault(number, []).append(rank)
        if all(warm or number in of_set for number, warm in steps):
            only_warm.append(rank)
    return sorted(of_set), {n: rank_only[n] for n in sorted(rank_only)}, only_warm


def mismatched_collectives_note(merged: dict) -> Optional[str]:
    """noteMismatchedCollectives."""
    mismatched = sum(1 for counts in merged["collective_counts"].values() if len(counts) > 1)
    if mismatched > 0:
        return ("in %d %s the ranks ran different numbers of collectives: waits there pair the k-th of each rank"
                % (mismatched, "step" if mismatched == 1 else "steps"))
    return None


RANKS_LISTED = 8  # kRanksListed


def _rank_list(ranks: Sequence[int]) -> str:
    """rankList."""
    listed = ", ".join(str(r) for r in ranks[:RANKS_LISTED]) + (", ..." if len(ranks) > RANKS_LISTED else "")
    return ("rank " if len(ranks) == 1 else "ranks ") + listed


def warm_up_notes(steps: List[dict], rank_only: Dict[int, List[int]], only_warm: List[int]) -> List[str]:
    """noteWarmUpSteps."""
    usual = lower_median(s["step_time_median_ns"] for s in steps if not s["warm_up"])
    notes = ["step %d is a warm-up (start-up or compilation): %s against a median step of %s, rank %d the slowest "
             "in it; left out of the ranks' figures and the straggler analysis"
             % (s["step"], millis(s["step_time_median_ns"]), millis(usual), s["slowest_rank"])
             for s in steps if s["warm_up"]]
    for number, members in rank_only.items():
        notes.append("step %d is a warm-up on %s but not on most ranks: left out of %s figures (are the ranks' "
                     "steps numbered alike?)" % (number, _rank_list(members), "its" if len(members) == 1 else "their"))
    if only_warm:
        one = len(only_warm) == 1
        notes.append("%s %s no step but a warm-up: %s figures are of the warm-up"
                     % (_rank_list(only_warm), "has" if one else "have", "its" if one else "their"))
    return notes


def _step_mark_groups(marks: Sequence[Tuple[int, str]]) -> List[Tuple[str, List[int]]]:
    """stepMarkGroups: the ranks of each step mark, in the order first seen."""
    groups: List[Tuple[str, List[int]]] = []
    for rank, mark in marks:
        for name, members in groups:
            if name == mark:
                members.append(rank)
                break
        else:
            groups.append((mark, [rank]))
    return groups


def mixed_step_marks_note(marks: Sequence[Tuple[int, str]]) -> Optional[str]:
    """noteMixedStepMarks over (rank, step mark) by rank."""
    groups = _step_mark_groups(marks)
    if len(groups) < 2:
        return None
    parts = ["%s: %s" % (_rank_list(members), mark) for mark, members in groups]
    return ("the ranks' steps come from different marks (%s): a step number may not be the same iteration on "
            "every rank" % "; ".join(parts))


def common_step_mark(marks: Sequence[Tuple[int, str]]) -> str:
    """commonStepMark: the mark of the most ranks, the first seen on a tie."""
    best = ("", [])
    for group in _step_mark_groups(marks):
        if len(group[1]) > len(best[1]):
            best = group
    return best[0]
