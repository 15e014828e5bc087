#!/usr/bin/env python3
"""B ahead of the programmatic wait (GemmOptions::b_ready_at_launch), per row of one graphgemm_bench
JSON that timed `sm90` and `sm90+bready` side by side: the time ratio bready / sm90, each one's
multiple of the memory floor, cuBLASLt / each, and per suite the geomeans and how many rows are
within 1.15x of the floor.
  ab_table.py RUN.json [RUN2.json ...]"""
import json
import math
import sys


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


for path in sys.argv[1:]:
    run = json.load(open(path))
    print(f"== {path}")
    print(f"{'suite':7}{'name':20}{'M':>6}{'N':>7}{'K':>7} {'new/old':>8} {'old/fl':>7} {'new/fl':>7} {'lt/old':>7} {'lt/new':>7}  config(new)")
    groups = {}
    for r in run["rows"]:
        u = r["us"]
        old, new, lt = u.get("sm90"), u.get("sm90+bready"), u.get("cublaslt")
        if not old or not new:
            continue
        fl = r["floor_us"] if r.get("floor_kind") == "memory" else None
        cfg = r["config"].get("sm90+bready", "")
        ahead = "ahead" if "loaded before the wait" in cfg else "-"
        print(f"{r['suite']:7}{r['name'][:19]:20}{r['M']:6}{r['N']:7}{r['K']:7} {new / old:8.3f} "
              f"{(old / fl if fl else float('nan')):7.3f} {(new / fl if fl else float('nan')):7.3f} "
              f"{lt / old:7.3f} {lt / new:7.3f}  {ahead} {cfg.split(',')[0][25:]}")
        key = r["suite"] + (" M<=256" if r["suite"] == "llm" and r["M"] <= 256 else "")
        g = groups.setdefault(key, {"ratio": [], "lo": [], "ln": [], "fo": 0, "fn": 0, "n": 0, "ahead": 0})
        g["ratio"].append(new / old)
        g["lo"].append(lt / old)
        g["ln"].append(lt / new)
        g["n"] += 1
        g["ahead"] += ahead == "ahead"
        if fl:
            g["fo"] += old / fl <= 1.15
            g["fn"] += new / fl <= 1.15
    for k, g in groups.items():
        print(f"  {k:12} n={g['n']:3} (B ahead on {g['ahead']}): new/old geomean {geomean(g['ratio']):.4f} "
              f"[{min(g['ratio']):.3f}, {max(g['ratio']):.3f}]; cuBLASLt/ours {geomean(g['lo']):.4f} -> {geomean(g['ln']):.4f}; "
              f"within 1.15x of the floor {g['fo']} -> {g['fn']}")
