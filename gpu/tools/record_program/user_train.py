"""A training script as users write it, with no step markers of any kind:
no torch.profiler schedule or prof.step(), no NVTX, no record_function.
The proof that gapscope finds a step in such a program (docs/gaps.md, "Per
step"; docs/recording.md, "Recording your own program").

  python3 user_train.py [--compile] [--iters N] [--torch-profile OUT.json]

A 4-layer transformer encoder on 32 x 64 x 256 batches from a DataLoader
with 2 worker processes and pinned memory, AdamW, bf16 autocast, and
loss.item() every iteration (as a logging loop does: one sync a step).
--compile wraps the model in torch.compile. --torch-profile runs the loop
under torch.profiler (CPU and CUDA, no schedule: no ProfilerStep#N) and
writes its trace. Prints ITER_MS: the program's own time from the top of
one iteration to the top of the next, every iteration, for the checks.
"""
import argparse
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def make_model():
    layer = nn.TransformerEncoderLayer(d_model=256, nhead=4, dim_feedforward=1024, batch_first=True)
    return nn.Sequential(nn.TransformerEncoder(layer, num_layers=4), nn.Linear(256, 10)).cuda()


def train(model, opt, loader, iters, starts):
    for it, (x, y) in enumerate(loader):
        if it == iters:
            break
        starts.append(time.perf_counter())
        x = x.cuda(non_blocking=True)
        y = y.cuda(non_blocking=True)
        opt.zero_grad()
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = nn.functional.cross_entropy(model(x).mean(1), y)
        loss.backward()
        opt.step()
        loss.item()
    starts.append(time.perf_counter())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--compile", action="store_true")
    p.add_argument("--iters", type=int, default=12)
    p.add_argument("--torch-profile")
    args = p.parse_args()
    torch.manual_seed(0)
    model = make_model()
    if args.compile:
        model = torch.compile(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    data = TensorDataset(torch.randn(32 * (args.iters + 1), 64, 256), torch.randint(0, 10, (32 * (args.iters + 1),)))
    loader = DataLoader(data, batch_size=32, shuffle=True, num_workers=2, pin_memory=True, drop_last=True)
    starts = []
    if args.torch_profile:
        acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
        with torch.profiler.profile(activities=acts) as prof:
            train(model, opt, loader, args.iters, starts)
        prof.export_chrome_trace(args.torch_profile)
    else:
        train(model, opt, loader, args.iters, starts)
    periods = [(b - a) * 1e3 for a, b in zip(starts, starts[1:])]
    print("ITER_MS:", " ".join(f"{v:.3f}" for v in periods))


if __name__ == "__main__":
    main()
