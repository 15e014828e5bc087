#!/usr/bin/env python3
"""Session 55: fits each backend's time over a K sweep at fixed M x N to t = a + b * (K / 64):
a = the per-launch part (µs), b = µs per 64-deep k-block of the whole grid. Usage:
ksweep_fit.py ROUND1.json [ROUND2.json ...]: one table per round and M x N, then the raw times."""
import json, sys, collections


def short(name):
    return name.replace("sm90=sm90_bf16_bf16_", "").replace(":none", "")


def fit(points):
    n = len(points)
    sx = sum(x for x, _ in points); sy = sum(y for _, y in points)
    sxx = sum(x * x for x, _ in points); sxy = sum(x * y for x, y in points)
    b = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    a = (sy - b * sx) / n
    worst = max(abs(y - (a + b * x)) / y for x, y in points)
    return a, b, worst


for path in sys.argv[1:]:
    rows = json.load(open(path))["rows"]
    fam = collections.defaultdict(list)
    for r in rows:
        fam[(r["M"], r["N"])].append(r)
    print(f"== {path}")
    for (m, n), rs in sorted(fam.items()):
        rs.sort(key=lambda r: r["K"])
        backends = sorted(rs[0]["us"], key=lambda b: (b != "cublaslt", b != "sm90", b))
        print(f"  M {m} N {n}: t = a + b * k-blocks, fitted over K = {[r['K'] for r in rs]}")
        for be in backends:
            a, b, w = fit([(r["K"] / 64, r["us"][be]) for r in rs])
            # The 64-k-block point (K = 4096) and the largest K alone: the slope where it counts.
            big = [r for r in rs if r["K"] >= 2048]
            _, b_big, _ = fit([(r["K"] / 64, r["us"][be]) for r in big]) if len(big) >= 2 else (0, 0, 0)
            print(f"    {short(be):28} a {a:6.2f} us  b {b:6.3f} us/kblock (K >= 2048: {b_big:6.3f})  worst residual {w * 100:4.1f}%")
        print("    K      " + " ".join(f"{short(be)[:14]:>14}" for be in backends))
        for r in rs:
            print(f"    {r['K']:<6} " + " ".join(f"{r['us'][be]:14.2f}" for be in backends))
