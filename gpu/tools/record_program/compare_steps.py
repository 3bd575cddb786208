"""Per-step figures of two traces of the same PyTorch program, one recorded
by `gapscope-cli record -- CMD`, one by torch.profiler, both read by the same
analysis (`gapscope-cli gaps --per-step --format json`): kernels per step,
median GPU busy per step and as a share of its step, median step time.

  python3 compare_steps.py GAPS_GAPSCOPE.json GAPS_TORCH.json STEPS
"""
import json
import statistics
import sys


def figures(path, steps):
    with open(path) as f:
        j = json.load(f)
    rows = sorted((s for s in j.get("steps", []) if s["step"].startswith("ProfilerStep#")), key=lambda s: s["number"])
    rows = rows[:steps]
    kernels = [s["kernels"] for s in rows]
    dur = [s["cpu_dur_us"] for s in rows]
    busy = [sum(d["busy_us"] for d in s["devices"]) for s in rows]
    # Medians: torch.profiler's first step carries the profiler's start-up.
    share = [100.0 * b / d for b, d in zip(busy, dur) if d > 0]
    return {"steps": len(rows), "kernels": kernels, "median_step_us": statistics.median(dur) if dur else 0,
            "median_busy_us": statistics.median(busy) if busy else 0,
            "busy_pct": statistics.median(share) if share else 0}


def main():
    steps = int(sys.argv[3])
    g, t = figures(sys.argv[1], steps), figures(sys.argv[2], steps)
    print(f"steps:            gapscope {g['steps']}, torch.profiler {t['steps']}")
    print(f"kernels per step: gapscope {g['kernels']}")
    print(f"                  torch    {t['kernels']}")
    diff = max((abs(a - b) for a, b in zip(g["kernels"], t["kernels"])), default=-1)
    print(f"max |difference| of kernels per step: {diff}")
    print(f"GPU busy per step (median): gapscope {g['median_busy_us']:.1f} us, torch.profiler "
          f"{t['median_busy_us']:.1f} us")
    print(f"GPU busy, share of the step (median): gapscope {g['busy_pct']:.2f}%, torch.profiler {t['busy_pct']:.2f}%, "
          f"difference {g['busy_pct'] - t['busy_pct']:+.2f} points")
    ratio = g["median_step_us"] / t["median_step_us"] if t["median_step_us"] else 0
    print(f"median step time: gapscope {g['median_step_us']:.1f} us, torch.profiler {t['median_step_us']:.1f} us, "
          f"ratio {ratio:.3f}")
    ok = g["steps"] == steps and t["steps"] == steps and diff <= 1 and abs(g["busy_pct"] - t["busy_pct"]) <= 2 \
        and abs(ratio - 1) <= 0.05
    print("within the goals (kernels +-1, busy +-2 points, step time +-5%):", "yes" if ok else "NO")


if __name__ == "__main__":
    main()
