#!/usr/bin/env python3
"""Session 41: the rows of a fill sweep (automatic beside the 64x64 and 64x128 tiles forced): the
automatic kernel, time / floor of each, and 64x64 / 64x128. Then the geomean of 64x64 / 64x128 over
the rows automatic moved to 64x64 by the fill rule (its config names the fill)."""
import json
import math
import sys

for path in sys.argv[1:]:
    d = json.load(open(path))
    names = list(d["rows"][0]["us"])
    t64 = next(k for k in names if "64x64x64" in k)
    t128 = next(k for k in names if "64x128x64" in k)
    moved = []
    print(path)
    print(f"{'M':>3} {'N':>6} {'K':>5} {'auto':>7} | {'cublaslt':>8} {'auto':>6} {'64x64':>6} {'64x128':>6} | 64x64/64x128")
    for r in d["rows"]:
        u, f = r["us"], r["floor_us"]
        auto = r["config"]["sm90"].split(",")[0].replace("sm90: sm90_bf16_bf16_", "").split("x64_s")[0]
        ratio = u[t64] / u[t128]
        if "fill" in r["config"]["sm90"]: moved.append(ratio)
        print(f"{r['M']:3d} {r['N']:6d} {r['K']:5d} {auto:>7} | {u['cublaslt'] / f:8.3f} {u['sm90'] / f:6.3f} "
              f"{u[t64] / f:6.3f} {u[t128] / f:6.3f} | {ratio:.3f}{' moved' if 'fill' in r['config']['sm90'] else ''}")
    if moved:
        g = math.exp(sum(map(math.log, moved)) / len(moved))
        print(f"moved by the fill rule: {len(moved)} rows, 64x64 / 64x128 geomean {g:.3f}, "
              f"range {min(moved):.3f}-{max(moved):.3f}, slower {sum(x > 1.0 for x in moved)}")
