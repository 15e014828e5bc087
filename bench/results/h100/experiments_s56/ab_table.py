#!/usr/bin/env python3
"""Session 56: rows whose automatic choice moved, from runs with backends cuBLASLt, automatic ('sm90')
and the previous choice forced ('sm90=<old>:none'), two rounds: per row new / old time and cuBLASLt /
new (round 1 / round 2), automatic's kernel; geomeans at the end.
  ab_table.py R1.json [R1.json ...] -- R2.json [R2.json ...]"""
import json, math, sys

args = sys.argv[1:]
cut = args.index("--")
def load(files):
    rows = {}
    for f in files:
        for r in json.load(open(f))["rows"]:
            rows[(r["M"], r["N"], r["K"])] = r
    return rows
r1, r2 = load(args[:cut]), load(args[cut + 1:])
def old_key(r):
    return next(b for b in r["us"] if b.startswith("sm90="))
print(f"{'row':18s} {'new/old r1':>10s} {'r2':>6s} {'lt/new r1':>10s} {'r2':>6s} {'new us':>8s}  previous -> automatic")
ab, lt = [], []
for key in sorted(r1, key=lambda k: k):
    if key not in r2:
        continue
    a, b = r1[key], r2[key]
    o = old_key(a)
    x = [run["us"]["sm90"] / run["us"][o] for run in (a, b)]
    y = [run["us"]["cublaslt"] / run["us"]["sm90"] for run in (a, b)]
    ab += [math.log(v) for v in x]
    lt += [math.log(v) for v in y]
    kern = a["config"]["sm90"].split(",")[0].replace("sm90: sm90_bf16_bf16_", "")
    prev = o.replace("sm90=sm90_bf16_bf16_", "").replace(":none", "")
    print(f"{'x'.join(map(str, key)):18s} {x[0]:10.3f} {x[1]:6.3f} {y[0]:10.3f} {y[1]:6.3f} {a['us']['sm90']:8.2f}  {prev} -> {kern}")
n = len(ab) // 2
print(f"geomean over {n} rows (both rounds): new / old {math.exp(sum(ab) / len(ab)):.3f}, cuBLASLt / new {math.exp(sum(lt) / len(lt)):.3f}; "
      f"rows slower than old by > 2% in both rounds: "
      f"{sum(1 for k in r1 if k in r2 and min(r['us']['sm90'] / r['us'][old_key(r)] for r in (r1[k], r2[k])) > 1.02)}")
