#!/usr/bin/env python3
"""Session 54: per row of two runs (the same backends, order reversed), automatic's time against
the fastest forced tile of each run; lists the rows where one forced tile is faster than automatic
by more than 1% in both runs, and the geomean of cuBLASLt / automatic and cuBLASLt / (the best of
automatic and every forced tile) per run.
  sweep_big.py R1.json R2.json"""
import json
import math
import sys


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


runs = [{(r["name"], r["M"], r["N"], r["K"]): r["us"] for r in json.load(open(f))["rows"]} for f in sys.argv[1:3]]
keys = [k for k in runs[0] if k in runs[1]]
forced = [b for b in runs[0][keys[0]] if b.startswith("sm90=")]
short = lambda b: b.replace("sm90=sm90_bf16_bf16_", "").replace("x64_", " ").replace("_bk", "")
print(f"{'row':40s} {'auto/lt r1':>10s} {'r2':>6s}   best forced (time / auto, r1 r2)")
misses = []
for k in keys:
    auto = [run[k]["sm90"] for run in runs]
    lt = [run[k]["cublaslt"] / run[k]["sm90"] for run in runs]
    # a tile faster than automatic in both runs: the one with the best worse-of-two ratio
    best = min(forced, key=lambda b: max(run[k][b] / run[k]["sm90"] for run in runs))
    r = [run[k][best] / run[k]["sm90"] for run in runs]
    flag = " <-- " if max(r) < 0.99 else ""
    if flag:
        misses.append(k)
    print(f"{k[0] + ' ' + 'x'.join(map(str, k[1:])):40s} {lt[0]:10.3f} {lt[1]:6.3f}   {short(best):28s} {r[0]:.3f} {r[1]:.3f}{flag}")
for i, run in enumerate(runs):
    a = geomean([run[k]["cublaslt"] / run[k]["sm90"] for k in keys])
    b = geomean([run[k]["cublaslt"] / min(run[k][x] for x in forced + ["sm90"]) for k in keys])
    print(f"run {i + 1}: cuBLASLt / automatic {a:.3f}, cuBLASLt / best of ours {b:.3f} ({len(keys)} rows)")
print(f"rows where a forced tile beats automatic by > 1% in both runs: {len(misses)}")
