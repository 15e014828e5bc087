#!/usr/bin/env python3
"""Call 1's A/B: cuBLASLt / ours per group for automatic and its consumer-stagger variants (+stgC),
in turns (two rounds) and sustained (four shapes); the base build's automatic beside it.

  python3 ab_stagger.py [call1]
"""
import glob
import json
import math
import os
import sys

d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "call1")
geomean = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))


def rows(path):
    return json.load(open(os.path.join(path, "gemm_bf16.json")))["rows"]


def table(rs, backends):
    groups = {}
    for r in rs:
        u = r["us"]
        multi = r["M"] * r["N"] / (128 * 256) > 132  # more than one 128x256 tile per SM
        for g in ("square" if r["suite"] == "square" else "llm M>=1024", "all", "multi-tile" if multi else "one-wave"):
            for b in backends:
                groups.setdefault(g, {}).setdefault(b, []).append(u["cublaslt"] / u[b])
    return groups


for rnd in (1, 2):
    t = os.path.join(d, f"turns_{rnd}")
    if not os.path.isdir(t):
        continue
    rs = rows(t)
    backends = [b for b in rs[0]["us"] if b != "cublaslt"]
    g = table(rs, backends)
    base = os.path.join(d, f"base_turns_{rnd}")
    gb = table(rows(base), ["sm90"]) if os.path.isdir(base) else {}
    print(f"turns round {rnd} (cuBLASLt / ours, geomean)")
    print("  group        " + " ".join(f"{b:>13s}" for b in backends) + "   base sm90")
    for name, per in g.items():
        print(f"  {name:12s} " + " ".join(f"{geomean(per[b]):13.3f}" for b in backends) +
              (f"   {geomean(gb[name]['sm90']):.3f}" if name in gb else ""))
for s in sorted([p for p in glob.glob(os.path.join(d, "sus_*")) if os.path.isdir(p)]):
    r = rows(s)[0]
    u = r["us"]
    print(f"sustained {os.path.basename(s)[4:]}: " + ", ".join(f"{b} {u['cublaslt'] / u[b]:.3f}" for b in u if b != "cublaslt"))
