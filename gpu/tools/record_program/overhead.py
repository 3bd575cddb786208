"""Recording overhead of `gapscope-cli record -- CMD` on a PyTorch program:
the program's own LOOP_S (its measured steps, after warm-up) untraced,
recorded by gapscope (with and without --torch-ops) and under torch.profiler,
each 5 times, interleaved; medians and ratios to the untraced median.

  python3 overhead.py CLI MODE STEPS OUTDIR
"""
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
    trace = os.path.join(out, f"overhead_{mode}.json.gz")
    record = [cli, "record", "-o", trace]
    # name: (command, extra environment)
    ways = {
        "untraced": (prog, {}),
        "gapscope": (record + ["--no-torch-ops", "--"] + prog, {}),
        "gapscope, 8 MiB buffers": (record + ["--no-torch-ops", "--"] + prog,
                                    {"GAPSCOPE_RECORD_BUFFER_BYTES": str(8 << 20)}),
        "gapscope --torch-ops": (record + ["--torch-ops", "--"] + prog, {}),
        "gapscope --torch-ops emit_nvtx": (record + ["--torch-ops", "--"] + prog,
                                           {"GAPSCOPE_TORCH_OPS_MODE": "emit_nvtx"}),
        "torch.profiler": (prog + ["--profile", os.path.join(out, f"overhead_{mode}_torch.json")], {}),
    }
    times = {k: [] for k in ways}
    log = os.path.join(out, f"overhead_{mode}.log")
    for _ in range(5):
        for name, (cmd, env) in ways.items():
            times[name].append(loop_seconds(cmd, log, env))
    base = statistics.median(times["untraced"])
    print(f"{mode} ({steps} steps), LOOP_S median of 5 (all 5):")
    for name, t in times.items():
        med = statistics.median(t)
        print(f"  {name:32s} {med * 1000:9.2f} ms  x{med / base:5.3f}   {[round(x * 1000, 2) for x in t]}")


if __name__ == "__main__":
    main()
