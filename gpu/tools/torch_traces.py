#!/usr/bin/env python3
"""Records PyTorch profiler traces on a GPU machine, each with PyTorch's own
key_averages() beside it (NAME.oracle.json, NAME.table.txt), for the
comparison examples of docs/compare.md and the operator-table checks.

    python3 gpu/tools/torch_traces.py OUTDIR [CASE ...]

Every case runs torch.profiler.profile(activities=[CPU, CUDA],
record_shapes=True) with schedule wait=1 warmup=1 active=3 and one
torch.cuda.synchronize() after every step, as the traces in tests/data/h200
were made. Cases:
  block_eager, block_compiled, block_cudagraph
      one block (cat, add, layer_norm, tanh, mul, add, matmul, relu) eager,
      under torch.compile, and under torch.compile(mode="reduce-overhead")
      (CUDA graphs)
  train_adam, train_adam_stack
      a training step of a small MLP with Adam (forward, backward, optimizer
      step), the second recorded with with_stack=True
  cudagraph_replay
      the MLP's forward captured in a torch.cuda.CUDAGraph and replayed
  nested_ops
      ops whose implementation calls an op of the same name (mean() calling
      mean.dim, mul.Scalar and div.Scalar calling their Tensor overloads),
      and copies, for PyTorch's folding of same-name only children
"""
import json
import os
import sys
import traceback

import torch
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile, record_function, schedule

STEPS = 5  # wait 1 + warmup 1 + active 3


def oracle_rows(prof):
    rows = []
    for e in prof.key_averages():
        rows.append({
            "name": e.key,
            "count": e.count,
            "self_cpu_us": e.self_cpu_time_total,
            "cpu_total_us": e.cpu_time_total,
            "self_device_us": e.self_device_time_total,
            "device_total_us": e.device_time_total,
        })
    return rows


def record(outdir, name, step, with_stack=False):
    acts = [ProfilerActivity.CPU, ProfilerActivity.CUDA]
    with profile(activities=acts, record_shapes=True, with_stack=with_stack,
                 schedule=schedule(wait=1, warmup=1, active=3)) as prof:
        for _ in range(STEPS):
            step()
            torch.cuda.synchronize()
            prof.step()
    prof.export_chrome_trace(os.path.join(outdir, name + ".json"))
    with open(os.path.join(outdir, name + ".oracle.json"), "w") as f:
        json.dump(oracle_rows(prof), f, indent=1)
    with open(os.path.join(outdir, name + ".table.txt"), "w") as f:
        f.write(prof.key_averages().table(sort_by="cuda_time_total", row_limit=-1))
    print(f"recorded {name}", flush=True)


def block_inputs():
    g = torch.Generator(device="cuda").manual_seed(0)
    x = torch.randn(256, 512, device="cuda", generator=g)
    y = torch.randn(256, 512, device="cuda", generator=g)
    b = torch.randn(1024, device="cuda", generator=g)
    w = torch.randn(1024, 1024, device="cuda", generator=g) / 32
    return x, y, b, w


def block(x, y, b, w):
    h = torch.cat([x, y], dim=1) + b
    h = F.layer_norm(h, (1024,))
    h = torch.tanh(h) * 0.5 + h
    return F.relu(h @ w)


def block_case(mode):
    args = block_inputs()
    fn = block if mode is None else torch.compile(block, mode=mode)
    for _ in range(4):  # compile and warm up outside the profiler
        fn(*args)
    torch.cuda.synchronize()
    return lambda: fn(*args)


def mlp():
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Linear(512, 1024), torch.nn.GELU(), torch.nn.Linear(1024, 1024),
        torch.nn.LayerNorm(1024), torch.nn.Linear(1024, 10)).cuda()


def train_case():
    model = mlp()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.randn(64, 512, device="cuda")
    target = torch.randint(0, 10, (64,), device="cuda")

    def step():
        with record_function("forward"):
            loss = F.cross_entropy(model(x), target)
        with record_function("backward"):
            loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    for _ in range(3):
        step()
    return step


def cudagraph_case():
    model = mlp().eval()
    static_x = torch.randn(64, 512, device="cuda")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.no_grad(), torch.cuda.stream(side):
        for _ in range(3):
            model(static_x)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.no_grad(), torch.cuda.graph(graph):
        static_y = model(static_x)

    def step():
        with record_function("replay"):
            static_x.copy_(torch.randn(64, 512, device="cuda"))
            graph.replay()
        return static_y
    return step


def nested_ops_case():
    g = torch.Generator(device="cuda").manual_seed(0)
    x = torch.randn(256, 512, device="cuda", generator=g)
    ints = torch.randint(0, 10, (256, 512), device="cuda", generator=g)

    def step():
        a = x.mean()                           # aten::mean > aten::mean (mean.dim)
        b = torch.ops.aten.mul.Scalar(x, 2.0)  # aten::mul > aten::mul (mul.Tensor)
        c = torch.ops.aten.div.Scalar(x, 3.0)  # aten::div > aten::div (div.Tensor)
        d = ints.mul(3) + x.mean(dim=1, keepdim=True)
        e = x.to(torch.float16).float().cpu()  # aten::to, aten::_to_copy, aten::copy_
        return a, b, c, d, e
    for _ in range(3):
        step()
    torch.cuda.synchronize()
    return step


CASES = {
    "block_eager": lambda: (block_case(None), False),
    "block_compiled": lambda: (block_case("default"), False),
    "block_cudagraph": lambda: (block_case("reduce-overhead"), False),
    "train_adam": lambda: (train_case(), False),
    "train_adam_stack": lambda: (train_case(), True),
    "cudagraph_replay": lambda: (cudagraph_case(), False),
    "nested_ops": lambda: (nested_ops_case(), False),
}


def main():
    outdir = sys.argv[1]
    names = sys.argv[2:] or list(CASES)
    os.makedirs(outdir, exist_ok=True)
    print(f"torch {torch.__version__} cuda {torch.version.cuda} on {torch.cuda.get_device_name()}", flush=True)
    failed = 0
    for name in names:
        try:
            step, with_stack = CASES[name]()
            record(outdir, name, step, with_stack)
        except Exception:  # one failing case must not lose the others
            failed += 1
            print(f"FAILED {name}", flush=True)
            traceback.print_exc()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
