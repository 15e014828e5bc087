#!/usr/bin/env python3
"""Call 5's A/B in one binary: automatic (the new ping-pong rule) against the ping-pong 128x128
forced, which was automatic's choice on the shapes the rule moved (automatic unchanged elsewhere).
Geomean cuBLASLt / ours per group, sustained and in turns, both rounds.

  python3 ab_table.py [call5]
"""
import json
import math
import os
import sys

PP = "sm90=sm90_bf16_bf16_128x128x64_s6_c1x1_pp_bk"
d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "call5")
# The shapes whose automatic choice moved off ping-pong: tools/diag/compare_decisions.py of the
# heuristic dumps before / after (graphgemm_heuristic_decisions over every suite shape).
MOVED = {line.split()[0] for line in open(os.path.join(d, "decisions_nk.txt")) if "_pp_" in line.split()[1]}
geomean = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))

for mode in ("sustained", "turns"):
    for rnd in (1, 2):
        rows = json.load(open(os.path.join(d, f"{mode}_{rnd}", "gemm_bf16.json")))["rows"]
        groups = {}
        for r in rows:
            u = r["us"]
            new = u["cublaslt"] / u["sm90"]
            moved = f'{r["M"]}x{r["N"]}x{r["K"]}' in MOVED
            old = u["cublaslt"] / u[PP] if moved else new
            for g in ("square" if r["suite"] == "square" else "llm M>=1024", "all") + (("moved",) if moved else ()):
                groups.setdefault(g, ([], []))
                groups[g][0].append(old)
                groups[g][1].append(new)
        print(f"{mode:9s} round {rnd}: " + "; ".join(f"{g} {geomean(o):.3f} -> {geomean(n):.3f} (n={len(o)})" for g, (o, n) in groups.items()))
