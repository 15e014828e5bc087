#!/usr/bin/env python3
"""A 4-layer MLP whose batch M changes every step, run in torch CUDA graphs: how PyTorch users do it
today beside graphgemm's graph nodes updated in place, side by side in one process.

Every step draws M from 1..max_m and takes a new input x (one of several buffers); its result is
y[:M]. Approaches:
  eager             torch.nn.functional.linear, 4 layers (cuBLAS through torch), no graph
  torch buckets     one torch.cuda.graph a bucket of M (powers of 2 up to max_m, the practice of
                    inference engines): x copied into the bucket's static input, the bucket replayed
  torch recapture   a torch.cuda.graph captured for this M every step (capture + instantiate), replayed
  graphgemm nodes   4 GEMM nodes (graphgemm.graph.record) in one torch graph, each updated in place
  graphgemm chain   one chain node (graphgemm.Chain, graphgemm.graph.record_chain) in a torch graph,
                    updated in place (graphgemm.graph.update_chain)
  floor             the chain's graph replayed with no update (the GPU work alone; results not comparable)
  probes            the two graphgemm approaches' updates alone, no replay (their host cost from Python)
Each in two modes: pipelined (the host runs ahead; one synchronize at the end) and synchronized
(a synchronize after every step, as a step whose host code waits for its result). The approaches take
turns in rounds, in an order that rotates from round to round; the median over rounds is reported
with the rounds' range.

Correctness, before any timing: at several M every approach's y[:M] against eager's (relative
error, bf16), and the graphgemm graphs bitwise against graphgemm's own eager runs on the same tile.

Usage: python3 bench/torch_graph_mlp.py [--hidden 512,1024,4096] [--max-m 256] [--steps 1000]
       [--rounds 5] [--out DIR]   (writes DIR/torch_graph_mlp.{json,md})
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

import torch
import torch.nn.functional as F

import graphgemm
import graphgemm.graph as ggg

LAYERS = 4
INPUTS = 4  # input buffers the steps cycle through


class Mlp:
    """The operands of one hidden size: weights (N x K, as torch.nn.Linear holds them), biases,
    input buffers, and the M of every step."""

    def __init__(self, hidden: int, max_m: int, steps: int, seed: int):
        g = torch.Generator(device="cuda").manual_seed(seed)
        self.hidden, self.max_m = hidden, max_m
        self.w = [torch.randn(hidden, hidden, device="cuda", dtype=torch.bfloat16, generator=g) / hidden**0.5
                  for _ in range(LAYERS)]
        self.b = [torch.randn(hidden, device="cuda", dtype=torch.bfloat16, generator=g) * 0.1 for _ in range(LAYERS)]
        self.xs = [torch.randn(max_m, hidden, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(INPUTS)]
        rng = random.Random(seed)
        self.ms = [rng.randint(1, max_m) for _ in range(steps)]

    def torch_forward(self, x):
        for w, b in zip(self.w, self.b):
            x = F.linear(x, w, b)
        return x


class Eager:
    name = "eager (torch F.linear x4)"

    def __init__(self, p: Mlp):
        self.p = p
        self.out = None

    def step(self, i: int, m: int):
        self.out = self.p.torch_forward(self.p.xs[i % INPUTS][:m])

    def result(self, m: int):
        return self.out[:m]


class TorchBuckets:
    name = "torch buckets (one graph a power-of-2 M, x copied in)"

    def __init__(self, p: Mlp):
        self.p = p
        self.x_static = torch.zeros(p.max_m, p.hidden, device="cuda", dtype=torch.bfloat16)
        self.buckets = []
        b = 1
        while b < p.max_m:
            self.buckets.append(b)
            b *= 2
        self.buckets.append(p.max_m)
        self.graphs, self.outs = {}, {}
        pool = torch.cuda.graph_pool_handle()
        for b in reversed(self.buckets):  # the largest first: the others reuse its pool memory
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g, pool=pool):
                self.outs[b] = p.torch_forward(self.x_static[:b])
            self.graphs[b] = g
        self.bucket_of = [next(b for b in self.buckets if b >= m) for m in range(p.max_m + 1)]
        self.m = 0

    def step(self, i: int, m: int):
        b = self.bucket_of[m]
        self.x_static[:m].copy_(self.p.xs[i % INPUTS][:m])
        self.graphs[b].replay()
        self.m = b

    def result(self, m: int):
        return self.outs[self.m][:m]


class TorchRecapture:
    name = "torch recapture (capture + instantiate every step)"

    def __init__(self, p: Mlp):
        self.p = p
        self.x_static = torch.zeros(p.max_m, p.hidden, device="cuda", dtype=torch.bfloat16)
        self.pool = torch.cuda.graph_pool_handle()
        self.graph, self.out = None, None

    def step(self, i: int, m: int):
        self.x_static[:m].copy_(self.p.xs[i % INPUTS][:m])
        self.graph = None  # the previous step's graph goes before this one is captured (its pool is reused)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g, pool=self.pool):
            self.out = self.p.torch_forward(self.x_static[:m])
        g.replay()
        self.graph = g

    def result(self, m: int):
        return self.out[:m]


def _capture(record):
    """A torch graph (kept for updates) of what record() records, instantiated and uploaded."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    g = torch.cuda.CUDAGraph(keep_graph=True)
    with torch.cuda.graph(g, stream=s):
        handle = record()
    g.instantiate()
    ggg.upload(g)
    torch.cuda.current_stream().wait_stream(s)
    return g, handle


class GemmNodes:
    name = "graphgemm nodes (4 GEMM nodes updated in place)"

    def __init__(self, p: Mlp):
        self.p = p
        self.h = [p.xs[0]] + [torch.empty(p.max_m, p.hidden, device="cuda", dtype=torch.bfloat16)
                              for _ in range(LAYERS)]
        self.plans = [graphgemm.Plan(self.h[l], p.w[l].t(), self.h[l + 1], bias=p.b[l], backend="sm90",
                                     split_k_mode="none") for l in range(LAYERS)]

        def record():
            return [ggg.record(self.plans[l], self.h[l], p.w[l].t(), self.h[l + 1], bias=p.b[l], max_m=p.max_m)
                    for l in range(LAYERS)]

        self.graph, self.nodes = _capture(record)
        for node in self.nodes:
            if not node.updatable:
                raise RuntimeError(f"a GEMM node is not updatable: {node.why_fixed}")
        # Each plan's kernel (its config: "sm90: <kernel>, ..."), for the eager runs at other M.
        self.kernels = [plan.config.split(" ")[1].rstrip(",") for plan in self.plans]

    def update(self, i: int, m: int):
        x = self.p.xs[i % INPUTS]
        ggg.update(self.graph, self.nodes[0], a=x[:m], d=self.h[1][:m])
        for l in range(1, LAYERS):
            ggg.update(self.graph, self.nodes[l], a=self.h[l][:m], d=self.h[l + 1][:m])

    def step(self, i: int, m: int):
        self.update(i, m)
        self.graph.replay()

    def result(self, m: int):
        return self.h[-1][:m]

    def eager(self, i: int, m: int):
        """The same GEMMs run eagerly at this M on the nodes' kernels (bit for bit the graph's result)."""
        x = self.p.xs[i % INPUTS][:m]
        for l in range(LAYERS):
            out = torch.empty(m, self.p.hidden, device="cuda", dtype=torch.bfloat16)
            graphgemm.Plan(x, self.p.w[l].t(), out, bias=self.p.b[l], backend="sm90", split_k_mode="none",
                           sm90_kernel=self.kernels[l]).run(x, self.p.w[l].t(), out, bias=self.p.b[l])
            x = out
        return x


class ChainNode:
    name = "graphgemm chain (one chain node updated in place)"

    def __init__(self, p: Mlp):
        self.p = p
        self.y = torch.empty(p.max_m, p.hidden, device="cuda", dtype=torch.bfloat16)
        self.chain = graphgemm.Chain(p.xs[0], self.y, [w.t() for w in p.w], p.b, max_m=p.max_m)
        self.graph, self.node = _capture(lambda: ggg.record_chain(self.chain, p.xs[0], self.y))

    def update(self, i: int, m: int):
        ggg.update_chain(self.graph, self.node, x=self.p.xs[i % INPUTS][:m], y=self.y[:m])

    def step(self, i: int, m: int):
        self.update(i, m)
        self.graph.replay()

    def result(self, m: int):
        return self.y[:m]

    def eager(self, i: int, m: int):
        out = torch.empty(m, self.p.hidden, device="cuda", dtype=torch.bfloat16)
        self.chain.run(self.p.xs[i % INPUTS][:m], out)
        return out


class UpdatesOnly:
    """Host cost of an approach's updates alone: its step without the replay (results not comparable);
    dlpack=True: with graphgemm.graph's torch fast path off (every operand through DLPack)."""

    def __init__(self, a, dlpack: bool = False):
        self.a, self.dlpack = a, dlpack
        self.name = f"probe: {a.name.split(' (')[0]}, updates only, no replay{', all through DLPack' if dlpack else ''}"

    def step(self, i: int, m: int):
        if self.dlpack:
            ggg._TORCH_FAST_PATH = False
            try:
                self.a.update(i, m)
            finally:
                ggg._TORCH_FAST_PATH = True
        else:
            self.a.update(i, m)


class Floor:
    name = "floor: the chain's graph, no update"

    def __init__(self, chain: ChainNode):
        self.graph = chain.graph

    def step(self, i: int, m: int):
        self.graph.replay()


def check(p: Mlp, approaches, ms) -> list:
    """Every approach's y[:M] against eager torch (relative error), graphgemm's graphs bitwise
    against their eager runs. Returns the rows of the check table; raises on a failure."""
    rows = []
    for i, m in enumerate(ms):
        ref = p.torch_forward(p.xs[i % INPUTS][:m]).float()
        for a in approaches:
            if isinstance(a, (Floor, UpdatesOnly)):
                continue
            a.step(i, m)
            got = a.result(m).float()
            err = ((got - ref).norm() / ref.norm()).item()
            bitwise = None
            if hasattr(a, "eager"):
                bitwise = bool(torch.equal(a.result(m), a.eager(i, m)))
            torch.cuda.synchronize()
            rows.append({"approach": a.name, "m": m, "rel_error": err, "bitwise_vs_own_eager": bitwise})
            if not err < 2e-2 or bitwise is False:
                raise RuntimeError(f"{a.name}, M = {m}: relative error {err:.3g}, bitwise {bitwise}")
    return rows


def time_steps(a, ms, synced: bool) -> float:
    """µs a step over the steps `ms`."""
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for i, m in enumerate(ms):
        a.step(i, m)
        if synced:
            torch.cuda.synchronize()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / len(ms) * 1e6


def run_hidden(hidden: int, args) -> dict:
    p = Mlp(hidden, args.max_m, args.steps, seed=hidden)
    p.torch_forward(p.xs[0])  # torch's cuBLAS set up before any capture
    torch.cuda.synchronize()
    chain = ChainNode(p)
    nodes = GemmNodes(p)
    approaches = [Eager(p), TorchBuckets(p), TorchRecapture(p), nodes, chain, Floor(chain), UpdatesOnly(nodes),
                  UpdatesOnly(nodes, dlpack=True), UpdatesOnly(chain), UpdatesOnly(chain, dlpack=True)]
    checks = check(p, approaches, [1, 17, 64, 100, 255, args.max_m])
    results = {a.name: {"pipelined": [], "synchronized": []} for a in approaches}
    for r in range(args.rounds):
        order = approaches[r % len(approaches):] + approaches[:r % len(approaches)]
        for mode in ("pipelined", "synchronized"):
            for a in order:
                steps = p.ms[:args.recapture_steps] if isinstance(a, TorchRecapture) else p.ms
                time_steps(a, steps[:50], mode == "synchronized")  # warm
                results[a.name][mode].append(time_steps(a, steps, mode == "synchronized"))
    table = {}
    for name, modes in results.items():
        table[name] = {mode: {"median_us": statistics.median(v), "min_us": min(v), "max_us": max(v)}
                       for mode, v in modes.items()}
    return {"hidden": hidden, "max_m": args.max_m, "steps": args.steps, "rounds": args.rounds,
            "chain": chain.chain.config, "checks": checks, "us_per_step": table}


def markdown(device: str, results: list) -> str:
    out = [f"# A 4-layer MLP with a changing batch in torch CUDA graphs ({device})", "",
           "bf16, M drawn from 1..max_m every step, a new input buffer every step; µs a step, the median over "
           "rounds (range). `vs chain` = the approach's time / graphgemm chain's, per mode. Every approach's "
           "result checked against eager torch before timing (relative error < 2e-2), graphgemm's graphs "
           "bitwise against their own eager runs. `bench/torch_graph_mlp.py`.", ""]
    chain_name = ChainNode.name
    for res in results:
        t = res["us_per_step"]
        out += [f"## hidden {res['hidden']}, max_m {res['max_m']} ({res['steps']} steps x {res['rounds']} rounds)", "",
                f"{res['chain']}", "",
                "| approach | pipelined µs | vs chain | synchronized µs | vs chain |", "|---|---:|---:|---:|---:|"]
        for name, modes in t.items():
            cells = []
            for mode in ("pipelined", "synchronized"):
                v = modes[mode]
                cells += [f"{v['median_us']:.1f} ({v['min_us']:.1f}-{v['max_us']:.1f})",
                          f"{v['median_us'] / t[chain_name][mode]['median_us']:.2f}x"]
            out.append(f"| {name} | " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hidden", default="512,1024,4096")
    ap.add_argument("--max-m", type=int, default=256)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--recapture-steps", type=int, default=100, help="steps of the (slow) recapture approach")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", default=".")
    args = ap.parse_args()
    if torch.cuda.get_device_capability() != (9, 0):
        raise SystemExit("graphgemm's graph nodes and chains run on Hopper (sm_90); this GPU is "
                         f"{torch.cuda.get_device_name()}")
    device = torch.cuda.get_device_name()
    results = []
    for h in (int(v) for v in args.hidden.split(",")):
        results.append(run_hidden(h, args))
        print(markdown(device, results[-1:]), flush=True)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "torch_graph_mlp.json"), "w") as f:
        json.dump({"device": device, "torch": torch.__version__, "results": results}, f, indent=1)
    with open(os.path.join(args.out, "torch_graph_mlp.md"), "w") as f:
        f.write(markdown(device, results) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
