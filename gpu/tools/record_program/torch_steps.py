"""The PyTorch program of the `record -- CMD` proof (docs/recording.md).

  python3 torch_steps.py --mode mlp|launch|compute [--steps N] [--profile OUT.json]

mlp: a 3-layer MLP training step (forward, backward, SGD) on 256 x 1024;
launch: 200 tiny elementwise kernels a step (launch-bound);
compute: 8 bf16 8192^3 matrix products a step (compute-bound).
Every step ends with torch.cuda.synchronize(). Steps are marked
"ProfilerStep#N": by torch.profiler's prof.step() with --profile, else by
an NVTX range (torch.cuda.nvtx), which the recorder's injection records.
Prints LOOP_S: the wall time of the measured steps (after --warmup steps, 50).
"""
import argparse
import time

import torch


def make(mode):
    dev = "cuda"
    if mode in ("mlp", "mlp-large"):
        # mlp-large: the same model on 8192 rows, ~25 ms of GEMMs a step, so
        # a profiler's CPU cost per operator hides behind the GPU's work.
        rows = 8192 if mode == "mlp-large" else 256
        model = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.GELU(), torch.nn.Linear(4096, 4096),
                                    torch.nn.GELU(), torch.nn.Linear(4096, 1024)).to(dev)
        opt = torch.optim.SGD(model.parameters(), lr=1e-3)
        x = torch.randn(rows, 1024, device=dev)

        def step():
            opt.zero_grad(set_to_none=True)
            loss = model(x).square().mean()
            loss.backward()
            opt.step()
        return step
    if mode == "launch":
        x = torch.ones(1024, device=dev)

        def step():
            y = x
            for _ in range(200):
                y = y * 1.0001
        return step
    a = torch.randn(8192, 8192, device=dev, dtype=torch.bfloat16)
    b = torch.randn(8192, 8192, device=dev, dtype=torch.bfloat16)

    def step():
        for _ in range(8):
            a @ b
    return step


def run(step, steps, mark):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for i in range(steps):
        mark(i, True)
        step()
        torch.cuda.synchronize()
        mark(i, False)
    return time.perf_counter() - t0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mode", choices=["mlp", "mlp-large", "launch", "compute"], default="mlp")
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--profile", default="")
    # Enough warm-up for the GPU's clocks to settle: 20 MLP steps take
    # only ~35 ms, and the step-time comparison is between separate runs.
    p.add_argument("--warmup", type=int, default=50)
    args = p.parse_args()
    step = make(args.mode)
    for _ in range(args.warmup):
        step()
    torch.cuda.synchronize()
    if args.profile:
        acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
        # A schedule makes the profiler name its steps ProfilerStep#N; one
        # active cycle longer than the run keeps every step's events.
        sched = torch.profiler.schedule(wait=0, warmup=0, active=args.steps + 1)
        with torch.profiler.profile(activities=acts, schedule=sched) as prof:
            loop = run(step, args.steps, lambda i, begin: None if begin else prof.step())
        prof.export_chrome_trace(args.profile)
    else:
        def mark(i, begin):
            if begin:
                torch.cuda.nvtx.range_push(f"ProfilerStep#{i}")
            else:
                torch.cuda.nvtx.range_pop()
        loop = run(step, args.steps, mark)
    print(f"LOOP_S {loop:.6f}", flush=True)


if __name__ == "__main__":
    main()
