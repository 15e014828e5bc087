#!/usr/bin/env python3
"""Session 55: per row of two runs (the same backends, order reversed), each backend's time over
automatic's ('sm90'), both runs as r1/r2, and automatic's µs; geomeans per backend at the end.
  tile_table.py R1.json R2.json"""
import json, math, re, sys

runs = [{(r.get("name", ""), r["M"], r["N"], r["K"]): r["us"] for r in json.load(open(f))["rows"]} for f in sys.argv[1:3]]
keys = [k for k in runs[0] if k in runs[1]]
backs = [b for b in runs[0][keys[0]] if b != "sm90"]
def short(b):
    """'sm90=sm90_bf16_bf16_64x64x64_s13_c1x1_bk:parallel' -> '64x64:parallel', 'sm90:parallel:auto:c8' ->
    'parallel:auto:c8', '..._128x112x64_s7_c2x1_bk+pdl:none' -> '128x112_c2x1+pdl' (stages and a 1x1 cluster dropped, the split suffix kept unless none)."""
    name, *split = b.split(":")
    name = re.sub(r"x64_s\d+_c1x1", "", name.replace("sm90=sm90_bf16_bf16_", "").replace("_bk", ""))
    name = re.sub(r"x64_s\d+_", "_", name)
    split = [x for x in split if x != "none"]
    return ":".join(split) if name == "sm90" else ":".join([name] + split)
print(f"{'row':34s} {'auto us':>8s} " + " ".join(f"{short(b)[:17]:>17s}" for b in backs))
logs = {b: [] for b in backs}
for k in keys:
    cells = []
    for b in backs:
        r = [(run[k][b] or float("nan")) / run[k]["sm90"] for run in runs]
        if r[0] == r[0] and r[1] == r[1]: logs[b].append(math.log(r[0] * r[1]) / 2)
        cells.append(f"{r[0]:.3f}/{r[1]:.3f}".rjust(17))
    name = (k[0] + " " if k[0] else "") + "x".join(map(str, k[1:]))
    print(f"{name[:34]:34s} {runs[0][k]['sm90']:8.2f} " + " ".join(cells))
print(f"{'geomean (time / automatic)':34s} {'':8s} " + " ".join(f"{math.exp(sum(v) / len(v)):17.3f}" for v in logs.values()))
