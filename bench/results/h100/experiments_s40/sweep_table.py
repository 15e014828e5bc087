#!/usr/bin/env python3
"""Session 40: a sweep's rows as time / floor per backend, and the best kernel forced by name over the
automatic choice (`sm90`)."""
import json
import sys

d = json.load(open(sys.argv[1]))
rows = d["rows"]
names = [k for k in rows[0]["us"]]
short = [k.replace("sm90=sm90_bf16_bf16_", "").replace("_c1x1_bk", "").replace("_bk", "") for k in names]
print(f"{'M':>3} {'N':>6} {'K':>5} {'floor':>7} | " + " ".join(f"{s:>12}" for s in short) + " | best forced / sm90")
for r in rows:
    f, u = r["floor_us"], r["us"]
    g = [u[k] for k in names if k.startswith("sm90=")]
    best = f"{min(g) / u['sm90']:.3f}" if g else ""
    print(f"{r['M']:3d} {r['N']:6d} {r['K']:5d} {f:7.2f} | " + " ".join(f"{u[k] / f:12.3f}" for k in names) + f" | {best}")
