"""Medians of the per-rank loop times that ddp_steps.py prints
(LOOP_MS rank=R ms=T), per way of running it, and each way against the
first (the untraced program):

  python3 loop_medians.py WAY=LOG[,LOG...] ...

e.g. untraced=u1.log,u2.log gapscope=g1.log,g2.log
"""
import re
import statistics
import sys


def loop_times(logs):
    """{rank: [ms, ...]} over the logs, one value per run and rank."""
    times = {}
    for log in logs:
        with open(log, errors="replace") as f:
            for m in re.finditer(r"LOOP_MS rank=(\d+) ms=([0-9.]+)", f.read()):
                times.setdefault(int(m.group(1)), []).append(float(m.group(2)))
    return times


def main():
    ways = [arg.split("=", 1) for arg in sys.argv[1:]]
    base = None
    for name, logs in ways:
        times = loop_times(logs.split(","))
        print(f"{name}:")
        for rank in sorted(times):
            med = statistics.median(times[rank])
            ratio = ""
            if base and rank in base:
                ratio = f"  x{med / base[rank]:.3f} of {ways[0][0]}"
            print(f"  rank {rank}: median {med:8.2f} ms of {len(times[rank])} runs{ratio}   "
                  f"{[round(t, 2) for t in times[rank]]}")
        if not times:
            print("  no LOOP_MS line (see the logs)")
        if base is None:
            base = {rank: statistics.median(t) for rank, t in times.items()}


if __name__ == "__main__":
    main()
