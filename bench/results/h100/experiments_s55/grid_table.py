#!/usr/bin/env python3
"""Session 55: per row of two runs, cuBLASLt / automatic (both runs), automatic's kernel and µs,
sorted by the worse of the two ratios; geomean per weight.
  grid_table.py R1.json R2.json"""
import json, math, sys, collections

runs = [{(r.get("name", ""), r["M"], r["N"], r["K"]): r for r in json.load(open(f))["rows"]} for f in sys.argv[1:3]]
keys = [k for k in runs[0] if k in runs[1]]
ratio = {k: [run[k]["us"]["cublaslt"] / run[k]["us"]["sm90"] for run in runs] for k in keys}
print(f"{'row':40s} {'lt/ours r1':>10s} {'r2':>6s} {'ours us':>8s}  kernel")
for k in sorted(keys, key=lambda k: max(ratio[k])):
    cfg = runs[0][k]["config"]["sm90"]
    kern = cfg.split(",")[0].replace("sm90: sm90_bf16_bf16_", "")
    split = cfg.split(",")[1].strip() if "," in cfg else ""
    print(f"{k[0] + ' ' + 'x'.join(map(str, k[1:])):40s} {ratio[k][0]:10.3f} {ratio[k][1]:6.3f} {runs[0][k]['us']['sm90']:8.2f}  {kern} {split}")
by = collections.defaultdict(list)
for k in keys:
    by[k[0]].append(math.log(ratio[k][0] * ratio[k][1]) / 2)
for name, v in by.items():
    print(f"geomean {name:28s} {math.exp(sum(v) / len(v)):.3f} ({len(v)} rows)")
allv = [x for v in by.values() for x in v]
print(f"geomean all {math.exp(sum(allv) / len(allv)):.3f} ({len(allv)} rows)")
