"""A data-parallel training script as users write it, with no step markers:
no torch.profiler schedule or prof.step(), no NVTX, no record_function.
The proof that `gapscope-cli record -o DIR/ -- torchrun ...` and `ranks`
find the iterations and the slow rank of such a program (docs/ranks.md).

  torchrun --standalone --nproc-per-node 2 user_ddp.py [--iters N] [--compile]
      [--torch-profile DIR] [--slow-rank R --slow-iters 6,9 --slow-ms 40]

Each rank trains a 4-layer transformer encoder wrapped in
DistributedDataParallel on its share of the data (a DistributedSampler and
a DataLoader with 2 worker processes, pinned memory), with AdamW and bf16
autocast; rank 0 alone logs the loss every 5 iterations, as scripts do.
--compile wraps the DDP model in torch.compile. On --slow-rank, in the
--slow-iters (1-based), the CPU is busy for
--slow-ms before backward: a rank whose input pipeline stalls, which the
others then wait for in the gradients' all-reduce. --torch-profile runs
the loop under torch.profiler (CPU and CUDA, no schedule) and writes
DIR/rank-<RANK>.json. Each rank prints ITER_MS rank=R: its own time from
the top of one iteration to the top of the next, every iteration.
"""
import argparse
import os
import time

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")  # NVLink multicast stays off on the lent machines

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.nn as nn  # noqa: E402
from torch.nn.parallel import DistributedDataParallel  # noqa: E402
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset  # noqa: E402


def busy_wait(ms):
    end = time.perf_counter() + ms / 1000.0
    while time.perf_counter() < end:
        pass


def train(model, opt, loader, args, rank, starts):
    for it, (x, y) in enumerate(loader, start=1):
        if it > args.iters:
            break
        starts.append(time.perf_counter())
        x = x.cuda(non_blocking=True)
        y = y.cuda(non_blocking=True)
        opt.zero_grad()
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = nn.functional.cross_entropy(model(x).mean(1), y)
        if rank == args.slow_rank and it in args.slow_iters:
            busy_wait(args.slow_ms)
        loss.backward()
        opt.step()
        value = loss.item()
        if rank == 0 and it % 5 == 0:
            print(f"iter {it} loss {value:.4f}", flush=True)
    starts.append(time.perf_counter())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--iters", type=int, default=16)
    p.add_argument("--torch-profile")
    p.add_argument("--compile", action="store_true")
    p.add_argument("--slow-rank", type=int, default=-1)
    p.add_argument("--slow-iters", default="")
    p.add_argument("--slow-ms", type=float, default=40.0)
    args = p.parse_args()
    args.slow_iters = {int(s) for s in args.slow_iters.split(",") if s.strip()}
    rank, local_rank, world = int(os.environ["RANK"]), int(os.environ["LOCAL_RANK"]), int(os.environ["WORLD_SIZE"])
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl", device_id=torch.device("cuda", local_rank))
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(d_model=256, nhead=4, dim_feedforward=1024, batch_first=True)
    model = nn.Sequential(nn.TransformerEncoder(layer, num_layers=4), nn.Linear(256, 10)).cuda()
    model = DistributedDataParallel(model, device_ids=[local_rank])
    if args.compile:
        model = torch.compile(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    n = 32 * world * (args.iters + 1)
    data = TensorDataset(torch.randn(n, 64, 256), torch.randint(0, 10, (n,)))
    sampler = DistributedSampler(data, num_replicas=world, rank=rank, shuffle=True)
    loader = DataLoader(data, batch_size=32, sampler=sampler, num_workers=2, pin_memory=True, drop_last=True)
    starts = []
    if args.torch_profile:
        os.makedirs(args.torch_profile, exist_ok=True)
        acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
        with torch.profiler.profile(activities=acts) as prof:
            train(model, opt, loader, args, rank, starts)
        prof.export_chrome_trace(os.path.join(args.torch_profile, f"rank-{rank}.json"))
    else:
        train(model, opt, loader, args, rank, starts)
    periods = [(b - a) * 1e3 for a, b in zip(starts, starts[1:])]
    print(f"ITER_MS rank={rank}:", " ".join(f"{v:.3f}" for v in periods), flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
