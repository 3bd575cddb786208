"""The DDP program of the multi-GPU proof (docs/recording.md), one rank per
GPU:

  torchrun --standalone --nproc-per-node 2 ddp_steps.py [--mode untraced|gapscope|torch]
      [--out DIR] [--slow-rank R] [--slow-steps 5,12] [--slow-ms 30] [--steps 20] [--warmup 10]
      [--heavy-rank R] [--heavy-steps 8] [--heavy-ms 20]

A small MLP wrapped in DistributedDataParallel; each step is forward, on the
slow rank in the slow steps a CPU busy loop, on the heavy rank in the heavy
steps extra GPU work (matrix products of their own shape, about --heavy-ms
of kernels), backward (DDP all-reduces the gradients with NCCL), optimizer
step, torch.cuda.synchronize(). After the
warm-up steps come the measured steps, numbered 1..N as the traces name
them (ProfilerStep#1 ...); --slow-steps uses those numbers.

untraced: nothing marked. gapscope: each measured step is an NVTX range
"ProfilerStep#N", which `gapscope-cli record` turns into a step. torch:
torch.profiler (CPU + CUDA) records exactly the measured steps (its own
warm-up is the last warm-up step) and writes DIR/rank-<RANK>.json, with the
distributedInfo torch.profiler adds.

Each rank prints one line: LOOP_MS rank=R ms=T, the wall time of its
measured steps.
"""
import argparse
import os
import time

# NVLink SHARP (multicast) stays off on the lent machines (KINDS.md); set
# before NCCL reads its environment.
os.environ.setdefault("NCCL_NVLS_ENABLE", "0")

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
from torch.nn.parallel import DistributedDataParallel  # noqa: E402


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--mode", choices=["untraced", "gapscope", "torch"], default="untraced")
    p.add_argument("--out", default=".", help="torch mode: folder for rank-<RANK>.json")
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--slow-rank", type=int, default=-1)
    p.add_argument("--slow-steps", default="", help="measured step numbers (1-based), e.g. 5,12")
    p.add_argument("--slow-ms", type=float, default=30.0)
    p.add_argument("--heavy-rank", type=int, default=-1)
    p.add_argument("--heavy-steps", default="", help="measured step numbers (1-based), e.g. 8")
    p.add_argument("--heavy-ms", type=float, default=20.0)
    args = p.parse_args()
    args.slow_steps = {int(s) for s in args.slow_steps.split(",") if s.strip()}
    args.heavy_steps = {int(s) for s in args.heavy_steps.split(",") if s.strip()}
    args.warmup = max(args.warmup, 1)  # the last warm-up step is the profiler's own
    return args


def busy_wait(ms):
    # CPU work, not sleep: the rank's host is busy, as with a slow data loader.
    end = time.perf_counter() + ms / 1000.0
    while time.perf_counter() < end:
        pass


def heavy_work(dev, ms):
    """GPU work of about `ms`, timed once at start-up: products of a shape the
    model never uses, so their kernels are this rank's own."""
    a = torch.randn(3072, 3072, device=dev)
    b = torch.randn(3072, 3072, device=dev)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.matmul(a, b)
    start.record()
    for _ in range(10):
        torch.matmul(a, b)
    end.record()
    torch.cuda.synchronize()
    each = max(start.elapsed_time(end) / 10, 1e-3)
    count = max(1, round(ms / each))

    def work():
        for _ in range(count):
            torch.matmul(a, b)
    return work


def make_step(local_rank, rank, slow_ms, heavy_ms):
    dev = torch.device("cuda", local_rank)
    torch.manual_seed(rank)  # each rank its own data, the same model (DDP broadcasts rank 0's)
    model = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.GELU(), torch.nn.Linear(4096, 4096),
                                torch.nn.GELU(), torch.nn.Linear(4096, 1024)).to(dev)
    model = DistributedDataParallel(model, device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    x = torch.randn(256, 1024, device=dev)
    heavy = heavy_work(dev, heavy_ms)

    def step(slow=False, heavy_step=False):
        opt.zero_grad(set_to_none=True)
        loss = model(x).square().mean()
        if slow:
            busy_wait(slow_ms)
        if heavy_step:
            heavy()
        loss.backward()
        opt.step()
        torch.cuda.synchronize()
    return step


def measured(step, args, rank, begin, end):
    """Runs the measured steps; returns their wall time in ms."""
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for n in range(1, args.steps + 1):
        begin(n)
        step(slow=rank == args.slow_rank and n in args.slow_steps,
             heavy_step=rank == args.heavy_rank and n in args.heavy_steps)
        end(n)
    return (time.perf_counter() - t0) * 1000.0


def run_untraced(step, args, rank):
    step()
    return measured(step, args, rank, lambda n: None, lambda n: None)


def run_gapscope(step, args, rank):
    step()
    return measured(step, args, rank, lambda n: torch.cuda.nvtx.range_push(f"ProfilerStep#{n}"),
                    lambda n: torch.cuda.nvtx.range_pop())


def run_torch(step, args, rank):
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, f"rank-{rank}.json")
    acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    # Profiler step 0 is its warm-up (the last warm-up step), 1..N are
    # recorded; the N-th prof.step() ends the cycle and writes the trace.
    sched = torch.profiler.schedule(wait=0, warmup=1, active=args.steps, repeat=1)
    with torch.profiler.profile(activities=acts, schedule=sched,
                                on_trace_ready=lambda p: p.export_chrome_trace(path)) as prof:
        step()
        prof.step()
        # The last step's prof.step() (which writes the file) comes after the clock stops.
        ms = measured(step, args, rank, lambda n: None, lambda n: prof.step() if n < args.steps else None)
        prof.step()
    return ms


def main():
    args = parse()
    rank, local_rank = int(os.environ["RANK"]), int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl", device_id=torch.device("cuda", local_rank))
    step = make_step(local_rank, rank, args.slow_ms, args.heavy_ms)
    for _ in range(args.warmup - 1):
        step()
    dist.barrier()  # all ranks start the measured loop together
    ms = {"untraced": run_untraced, "gapscope": run_gapscope, "torch": run_torch}[args.mode](step, args, rank)
    print(f"LOOP_MS rank={rank} ms={ms:.3f}", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
