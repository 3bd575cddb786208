"""The per-step comparison of compare_steps.py, repeated: one run's step time
moves by up to 10 % from run to run on the device machine (the untraced
program's too), so a single pair of traces cannot show 5 %. Records the
PyTorch MLP program RUNS times each way, interleaved (gapscope with
operators, gapscope without, torch.profiler), reads every trace with the
same analysis (`gaps --per-step --format json`) and compares the medians over
runs of each run's median step time and busy share; kernels per step must
match in every run.

  python3 steps_repeated.py CLI STEPS RUNS OUTDIR
"""
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_steps import figures  # noqa: E402


def gaps_json(cli, trace, out):
    with open(out, "w") as f:
        subprocess.run([cli, "gaps", trace, "--per-step", "--format", "json"], stdout=f, check=True, timeout=120)
    return out


def main():
    cli, steps, runs, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    mode = sys.argv[5] if len(sys.argv) > 5 else "mlp"
    here = os.path.dirname(os.path.abspath(__file__))
    prog = ["python3", os.path.join(here, "torch_steps.py"), "--mode", mode, "--steps", str(steps)]
    ways = {
        "gapscope, operators": lambda t: [cli, "record", "--torch-ops", "-o", t, "--"] + prog,
        "gapscope, no operators": lambda t: [cli, "record", "--no-torch-ops", "-o", t, "--"] + prog,
        "torch.profiler": lambda t: prog + ["--profile", t],
    }
    results = {k: [] for k in ways}
    for run in range(runs):
        for i, (name, cmd) in enumerate(ways.items()):
            trace = os.path.join(out, f"steps_{i}_{run}" + (".json" if name == "torch.profiler" else ".json.gz"))
            subprocess.run(cmd(trace), capture_output=True, timeout=240, check=True)
            results[name].append(figures(gaps_json(cli, trace, trace + ".gaps.json"), steps))
    torch = results["torch.profiler"]
    t_step = statistics.median(r["median_step_us"] for r in torch)
    t_busy = statistics.median(r["busy_pct"] for r in torch)
    print(f"{mode}, {steps} steps, {runs} runs each, interleaved; medians over runs of each run's median step")
    print(f"  {'way':24s} {'step time':>10s} {'ratio':>6s} {'busy share':>10s} {'diff':>7s}  kernels/step   per-run step times (us)")
    for name, rs in results.items():
        step = statistics.median(r["median_step_us"] for r in rs)
        busy = statistics.median(r["busy_pct"] for r in rs)
        kernels = sorted({k for r in rs for k in r["kernels"]})
        print(f"  {name:24s} {step:8.1f}us {step / t_step:6.3f} {busy:9.2f}% {busy - t_busy:+6.2f}  {kernels}  "
              f"{[round(r['median_step_us'], 1) for r in rs]}")


if __name__ == "__main__":
    main()
