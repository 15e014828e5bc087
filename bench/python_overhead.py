#!/usr/bin/env python3
"""Host overhead per call on a tiny GEMM: our torch op and direct path against torch.matmul and torch._scaled_mm.

The GPU work is tiny, so the host issues calls faster than nothing but its own overhead allows: wall
time per call over many un-synchronized calls is the host cost. All figures come from one process.

Usage: python3 bench/python_overhead.py [--out DIR] [--calls N]
"""
import argparse
import json
import os
import statistics
import time

import torch

import graphgemm
import graphgemm.torch as ggt


def per_call_us(fn, calls: int, repeats: int = 7) -> dict:
    for _ in range(200):
        fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        samples.append((t1 - t0) / calls * 1e6)
    return {"median_us": statistics.median(samples), "min_us": min(samples), "max_us": max(samples)}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=".")
    p.add_argument("--calls", type=int, default=2000)
    args = p.parse_args()
    m, n, k = 16, 64, 64
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    y = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    xq = x.to(torch.float8_e4m3fn)
    wq = w.to(torch.float8_e4m3fn)
    sx = torch.ones(m, 1, device="cuda")
    sw = torch.ones(1, n, device="cuda")
    plan = graphgemm.Plan(x, w.t(), y)
    stream = torch.cuda.current_stream().cuda_stream
    wt = w.t()
    cases = {
        "torch.matmul": lambda: torch.matmul(x, wt),
        "torch._scaled_mm (fp8 row-wise)": lambda: torch._scaled_mm(xq, wq.t(), sx, sw, out_dtype=torch.bfloat16),
        "graphgemm.torch.linear (torch op)": lambda: ggt.linear(x, w),
        "torch.ops.graphgemm.gemm.out (torch op)": lambda: torch.ops.graphgemm.gemm.out(x, wt, out=y),
        "graphgemm.Plan.run (direct, explicit stream)": lambda: plan.run(x, wt, y, stream=stream),
    }
    results = {name: per_call_us(fn, args.calls) for name, fn in cases.items()}
    ref = results["torch._scaled_mm (fp8 row-wise)"]["median_us"]
    doc = {
        "device": torch.cuda.get_device_name(),
        "torch": torch.__version__,
        "shape": [m, n, k],
        "method": f"median over 7 repeats of wall time / {args.calls} un-synchronized calls",
        "us": {k: v["median_us"] for k, v in results.items()},
        "detail": results,
        "ratio_to_scaled_mm": {k: v["median_us"] / ref for k, v in results.items()},
    }
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "python_overhead.json"), "w") as f:
        json.dump(doc, f, indent=1)
    print(f"host overhead per call, {m}x{n}x{k} bf16, {doc['device']}")
    for name, r in results.items():
        print(f"  {name:45s} {r['median_us']:7.2f} us  ({r['median_us'] / ref:.2f}x torch._scaled_mm)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
