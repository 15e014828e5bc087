#!/usr/bin/env python3
"""Per row: each backend's time / the memory floor, from one or more graphgemm_bench JSONs of the
same shapes (rounds: the per-round values joined by '/'); the best forced sm90 kernel marked *.
  tile_table.py A.json [B.json ...]"""
import json
import sys

runs = [json.load(open(p)) for p in sys.argv[1:]]
backs = list(runs[0]["rows"][0]["us"].keys())
short = [b.replace("sm90=sm90_bf16_bf16_", "").replace("_c1x1", "") for b in backs]
print("shape".ljust(28) + " ".join(s[:16].rjust(16) for s in short))
for i, r in enumerate(runs[0]["rows"]):
    vals = []
    for b in backs:
        xs = [run["rows"][i]["us"].get(b) for run in runs]
        vals.append([x / run["rows"][i]["floor_us"] if x else float("nan") for x, run in zip(xs, runs)])
    forced = [j for j, b in enumerate(backs) if b.startswith("sm90=")]
    best = min(forced, key=lambda j: sum(vals[j]) / len(vals[j])) if forced else -1
    name = f"{r.get('name', r['suite'])[:14]} {r['M']}x{r['N']}x{r['K']}"
    cells = ["/".join(f"{v:.3f}" for v in vs) + ("*" if j == best else " ") for j, vs in enumerate(vals)]
    print(name[:28].ljust(28) + " ".join(c.rjust(16) for c in cells))
