#!/usr/bin/env python3
"""Session 55: per row of two runs (the same backends, order reversed), each backend's time over
automatic's ('sm90'), both runs as r1/r2, and automatic's µs; geomeans per backend at the end.
  tile_table.py R1.json R2.json"""
import json, math, sys

runs = [{(r.get("name", ""), r["M"], r["N"], r["K"]): r["us"] for r in json.load(open(f))["rows"]} for f in sys.argv[1:3]]
keys = [k for k in runs[0] if k in runs[1]]
backs = [b for b in runs[0][keys[0]] if b != "sm90"]
short = lambda b: b.replace("sm90=sm90_bf16_bf16_", "").replace("x64_", " ").replace("_bk:none", "").replace("_bk", "")
print(f"{'row':34s} {'auto us':>8s} " + " ".join(f"{short(b)[:15]:>15s}" for b in backs))
logs = {b: [] for b in backs}
for k in keys:
    cells = []
    for b in backs:
        r = [(run[k][b] or float("nan")) / run[k]["sm90"] for run in runs]
        if r[0] == r[0] and r[1] == r[1]: logs[b].append(math.log(r[0] * r[1]) / 2)
        cells.append(f"{r[0]:.3f}/{r[1]:.3f}".rjust(15))
    name = (k[0] + " " if k[0] else "") + "x".join(map(str, k[1:]))
    print(f"{name[:34]:34s} {runs[0][k]['sm90']:8.2f} " + " ".join(cells))
print(f"{'geomean (time / automatic)':34s} {'':8s} " + " ".join(f"{math.exp(sum(v) / len(v)):15.3f}" for v in logs.values()))
