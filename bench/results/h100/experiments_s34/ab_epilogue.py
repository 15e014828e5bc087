#!/usr/bin/env python3
"""Call 8's A/B: cuBLASLt / ours per group, base build (epilogue kind switched per chunk) against the
new one (switched per block), each in its own bench run, alternating, two rounds; plain and bias.

  python3 ab_epilogue.py [call8]
"""
import json
import math
import os
import sys

d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "call8")
geomean = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))


def groups(path):
    g = {}
    for r in json.load(open(os.path.join(path, "gemm_bf16.json" if os.path.exists(os.path.join(path, "gemm_bf16.json")) else "gemm_bf16_bias.json")))["rows"]:
        u = r["us"]
        if not u.get("sm90"):
            continue
        name = r["suite"] if r["suite"] != "llm" else ("llm M<=256" if r["M"] <= 256 else "llm M>=1024")
        g.setdefault(name, []).append(u["cublaslt"] / u["sm90"])
        if r["M"] == r["N"] == r["K"] == 4096:
            g.setdefault("4096^3", []).append(u["cublaslt"] / u["sm90"])
    return {k: geomean(v) for k, v in g.items()}


for kind in ("", "bias_"):
    for rnd in (1, 2):
        b, n = (os.path.join(d, f"{v}_{kind}{rnd}") for v in ("base", "new"))
        if not (os.path.isdir(b) and os.path.isdir(n)):
            continue
        gb, gn = groups(b), groups(n)
        print(f"{kind or 'plain_'}round {rnd}: " + "; ".join(f"{k} {gb[k]:.3f} -> {gn[k]:.3f}" for k in gb if k in gn))
