"""Recording overhead of `gapscope-cli record -- CMD` on a PyTorch program:
the program's own LOOP_S (its measured steps, after warm-up) untraced,
recorded by gapscope (with and without --torch-ops) and under torch.profiler,
each 5 times (REPS), interleaved; medians and ratios to the untraced median.

  python3 overhead.py CLI MODE STEPS OUTDIR
"""
import collections
import gzip
import json
import os
import re
import statistics
import subprocess
import sys


def loop_seconds(cmd, log, env_extra=None):
    env = dict(os.environ, **(env_extra or {}))
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=env)
    with open(log, "a") as f:
        f.write("$ " + " ".join(cmd) + f"\n(exit {p.returncode})\n" + p.stdout[-3000:] + p.stderr[-2000:] + "\n")
    m = re.search(r"LOOP_S ([0-9.]+)", p.stdout)
    return float(m.group(1)) if m else float("nan")


def main():
    cli, mode, steps, out = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    here = os.path.dirname(os.path.abspath(__file__))
    prog = ["python3", os.path.join(here, "torch_steps.py"), "--mode", mode, "--steps", steps]
    record = lambda way: [cli, "record", "-o", os.path.join(out, f"overhead_{mode}_{way}.json.gz")]
    # name: (command, extra environment)
    ways = {
        "untraced": (prog, {}),
        "gapscope": (record("gapscope") + ["--no-torch-ops", "--"] + prog, {}),
        "gapscope, every API call": (record("all") + ["--no-torch-ops", "--"] + prog,
                                     {"GAPSCOPE_RECORD_API": "all"}),
        "gapscope, no driver API": (record("runtime") + ["--no-torch-ops", "--"] + prog,
                                    {"GAPSCOPE_RECORD_API": "runtime"}),
        "gapscope --torch-ops": (record("ops") + ["--torch-ops", "--"] + prog, {}),
        "torch.profiler": (prog + ["--profile", os.path.join(out, f"overhead_{mode}_torch.json")], {}),
    }
    # WAYS=untraced,gapscope,... keeps those; PIN=2-9 runs every way under
    # `taskset -c 2-9`, the same cores for all, to keep the scheduler's
    # migrations out of the comparison.
    if os.environ.get("WAYS"):
        keep = os.environ["WAYS"].split(",")
        ways = {k: v for k, v in ways.items() if k in keep}
    if os.environ.get("PIN"):
        ways = {k: (["taskset", "-c", os.environ["PIN"]] + c, e) for k, (c, e) in ways.items()}
    times = {k: [] for k in ways}
    log = os.path.join(out, f"overhead_{mode}.log")
    reps = int(os.environ.get("REPS", "5"))
    for _ in range(reps):
        for name, (cmd, env) in ways.items():
            times[name].append(loop_seconds(cmd, log, env))
    base = statistics.median(times["untraced"])
    print(f"{mode} ({steps} steps), LOOP_S median of {reps} (all {reps}):")
    for name, t in times.items():
        med = statistics.median(t)
        # Each run against the untraced run just before it: the machine's
        # state drifts between rounds, less within one.
        paired = statistics.median(x / u for x, u in zip(t, times["untraced"]))
        print(f"  {name:32s} {med * 1000:9.2f} ms  x{med / base:5.3f}  paired x{paired:5.3f}   {[round(x * 1000, 2) for x in t]}")
    for way in ["gapscope", "all", "runtime"]:
        print(f"API calls in the last trace of {way!r}:", api_counts(os.path.join(out, f"overhead_{mode}_{way}.json.gz")))


def api_counts(path):
    """The most frequent runtime and driver calls in a recorded trace."""
    try:
        with gzip.open(path, "rt") as f:
            events = json.load(f)["traceEvents"]
    except (OSError, ValueError) as e:
        return str(e)
    names = collections.Counter(e["name"] for e in events if e.get("cat") in ("cuda_runtime", "cuda_driver"))
    return names.most_common(6)


if __name__ == "__main__":
    main()
