"""Probe (issue 4, session 37): does graphgemm.graph.upload help GEMM nodes updated in torch graphs?

Several torch.cuda.CUDAGraph captures of the same work (12 chained bf16 GEMM nodes, 64 x 256 x 256,
recorded with graphgemm.graph.record), half uploaded with graphgemm.graph.upload after
instantiate(), half not, in alternating order of creation. Each graph is replayed in rounds, the
graphs taking turns in a seeded random order: N replays with one node's input pointer updated
before each (two inputs alternating), and N plain replays. Host wall clock per replay, the median
over the rounds. Prints, per graph, updated / plain and whether it was uploaded.

    python3 tools/diag/torch_upload_probe.py [--graphs 4] [--iters 2000] [--rounds 15]
"""
import argparse
import random
import statistics
import time

import torch

import graphgemm
import graphgemm.graph as ggg


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--graphs", type=int, default=4)
    ap.add_argument("--iters", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()
    torch.manual_seed(0)
    m, k, layers = 64, 256, 12
    xs = [torch.randn(m, k, device="cuda", dtype=torch.bfloat16) for _ in range(2)]
    ws = [torch.randn(k, k, device="cuda", dtype=torch.bfloat16) * 0.05 for _ in range(layers)]
    graphs = []
    for gi in range(args.graphs):
        uploaded = gi % 2 == 1
        ys = [torch.empty(m, k, device="cuda", dtype=torch.bfloat16) for _ in range(layers)]
        plans = [graphgemm.Plan(xs[0] if i == 0 else ys[i - 1], ws[i].t(), ys[i], backend="sm90", split_k_mode="none")
                 for i in range(layers)]
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        g = torch.cuda.CUDAGraph(keep_graph=True)
        with torch.cuda.graph(g, stream=s):
            nodes = [ggg.record(plans[i], xs[0] if i == 0 else ys[i - 1], ws[i].t(), ys[i], max_m=m)
                     for i in range(layers)]
        g.instantiate()
        if uploaded:
            ggg.upload(g)
        torch.cuda.synchronize()
        graphs.append(dict(g=g, node=nodes[0], ys=ys, uploaded=uploaded, upd=[], plain=[]))

    def run(entry, updated, n):
        g, node = entry["g"], entry["node"]
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for i in range(n):
            if updated:
                ggg.update(g, node, a=xs[i % 2])
            g.replay()
        torch.cuda.synchronize()
        return (time.perf_counter() - t0) / n * 1e6

    for e in graphs:  # warm-up
        run(e, True, 50)
        run(e, False, 50)
    rng = random.Random(20261124)
    for _ in range(args.rounds):
        turns = [(e, upd) for e in graphs for upd in (True, False)]
        rng.shuffle(turns)
        for e, upd in turns:
            (e["upd"] if upd else e["plain"]).append(run(e, upd, args.iters))
    # Correctness: one more update (input xs[1]) and replay of each graph, against eager torch.
    for e in graphs:
        ggg.update(e["g"], e["node"], a=xs[1])
        e["g"].replay()
        ref = xs[1]
        for i in range(layers):
            ref = (ref.float() @ ws[i].float().t()).to(torch.bfloat16)
        torch.cuda.synchronize()
        err = (e["ys"][-1].float() - ref.float()).abs().max().item() / (ref.float().abs().max().item() + 1e-6)
        e["err"] = err
    print(f"{torch.cuda.get_device_name()}; {layers} GEMM nodes {m}x{k}x{k} per graph, {args.iters} replays x "
          f"{args.rounds} rounds; us per replay (median of rounds)")
    print(f"{'graph':>5} {'uploaded':>8} {'updated':>9} {'plain':>9} {'upd/plain':>9} {'rel err':>8}")
    for gi, e in enumerate(graphs):
        u, p = statistics.median(e["upd"]), statistics.median(e["plain"])
        print(f"{gi:>5} {str(e['uploaded']):>8} {u:9.3f} {p:9.3f} {u / p:9.3f} {e['err']:8.4f}")


if __name__ == "__main__":
    main()
