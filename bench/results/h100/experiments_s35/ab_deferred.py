#!/usr/bin/env python3
"""Call 1's A/B: cuBLASLt / ours per group, base build (HEAD 32d88a8) against the deferred epilogue,
each in its own bench run, alternating, two rounds; plain and bias. Also the largest rel_error.

  python3 ab_deferred.py [call1]
"""
import json
import math
import os
import sys

d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "call1")
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


def max_err(path):
    f = os.path.join(path, "gemm_bf16.json")
    f = f if os.path.exists(f) else os.path.join(path, "gemm_bf16_bias.json")
    return max((r["rel_error"].get("sm90") or 0.0) for r in json.load(open(f))["rows"])


for kind in ("", "bias_"):
    for rnd in (1, 2, 3):
        b, n = (os.path.join(d, f"{v}_{kind}{rnd}") for v in ("base", "new"))
        if not (os.path.isdir(b) and os.path.isdir(n)):
            continue
        gb, gn = groups(b), groups(n)
        print(f"  max sm90 rel_error base {max_err(b):.2e} new {max_err(n):.2e}")
        print(f"{kind or 'plain_'}round {rnd}: " + "; ".join(f"{k} {gb[k]:.3f} -> {gn[k]:.3f}" for k in gb if k in gn))
