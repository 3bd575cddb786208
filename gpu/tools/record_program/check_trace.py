"""Checks a `gapscope-cli record -- CMD` trace of two_streams_graph (the
proof in docs/recording.md) from the JSON alone, without gapscope's reader:
every kernel present, each kernel name on one stream and the three kinds
on three streams, graph kernels carrying a graph id and the correlation id
of a cudaGraphLaunch, one ProfilerStep#N per step, and the processes.

  python3 check_trace.py TRACE.json.gz STEPS [PROCESSES] [--only-steps A-B]
"""
import collections
import gzip
import json
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def main():
    path, steps = sys.argv[1], int(sys.argv[2])
    processes = int(sys.argv[3]) if len(sys.argv) > 3 and not sys.argv[3].startswith("--") else 1
    events = load(path)["traceEvents"]
    kernels = [e for e in events if e.get("ph") == "X" and e.get("cat") == "kernel"]
    calls = [e for e in events if e.get("ph") == "X" and e.get("cat") == "cuda_runtime"]
    steps_seen = [e for e in events if e.get("ph") == "X" and str(e.get("name", "")).startswith("ProfilerStep#")]
    ok = True

    def check(cond, what):
        nonlocal ok
        print(("ok   " if cond else "FAIL ") + what)
        ok = ok and cond

    by_name = collections.Counter(k["name"] for k in kernels)
    want = {"kernel_a": 4, "kernel_b": 3, "graph_k1": 1, "graph_k2": 1, "graph_k3": 1}
    for name, per_step in want.items():
        got = sum(c for n, c in by_name.items() if name in n)
        check(got == per_step * steps * processes, f"{name}: {got} kernels (want {per_step * steps * processes})")
    # A kernel's process is the one of the call that launched it (same
    # correlation id); its own pid is the device, as in Kineto's traces.
    host = {c["args"]["correlation"]: c["pid"] for c in calls}
    streams = collections.defaultdict(set)
    for k in kernels:
        base = next((w for w in want if w in k["name"]), "?")
        streams[(host.get(k["args"]["correlation"], "?"), base)].add(k["args"]["stream"])
    check(all(len(s) == 1 for s in streams.values()), "each kernel on one stream per process: %s" %
          {f"{p}/{b}": sorted(s) for (p, b), s in streams.items()})
    per_process = collections.defaultdict(set)
    for (p, b), s in streams.items():
        kind = "graph" if b.startswith("graph") else b
        per_process[kind].update((p, x) for x in s)
    check(len(set().union(*per_process.values())) == 3 * processes,
          f"kernel_a, kernel_b and the graph on {3 * processes} distinct (device, stream) lanes")
    launches = {c["args"]["correlation"]: c for c in calls if c["name"] == "cudaGraphLaunch"}
    graph_kernels = [k for k in kernels if "graph_k" in k["name"]]
    linked = [k for k in graph_kernels if k["args"].get("correlation") in launches]
    check(len(launches) == steps * processes, f"{len(launches)} cudaGraphLaunch calls")
    check(all("graph id" in k["args"] for k in graph_kernels), "every graph kernel has a graph id")
    check(len(linked) == len(graph_kernels), f"{len(linked)} of {len(graph_kernels)} graph kernels carry their "
          "cudaGraphLaunch's correlation id")
    flows = {(e["id"], e["ph"]) for e in events if e.get("cat") == "ac2g"}
    graph_flows = sum(1 for c in launches if (c, "s") in flows and (c, "f") in flows)
    check(graph_flows == len(launches), f"{graph_flows} launch->GPU flows from cudaGraphLaunch")
    check(len(steps_seen) == steps * processes, f"{len(steps_seen)} ProfilerStep ranges (NVTX)")
    pids = {c["pid"] for c in calls}
    check(len(pids) == processes, f"{len(pids)} host processes with CUDA calls: {sorted(pids)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
