#!/usr/bin/env python3
"""Session 32's A/B tables of one call (call2 or call7: its sq.json and bench/ragged_*.json):
M x 4096 x 4096 (us, old = HEAD 9ee402b's kernels, new = the A box in bounds; two rounds) and the
ragged suite (cuBLASLt / ours per shape and run; ours new / old time).

  python3 ab_table.py call7 > call7/table.md"""
import json, math, os, sys
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), sys.argv[1])
sq = json.load(open(f"{here}/sq.json"))
names = {"cublaslt": "cuBLASLt", "sm90": "ours (auto)",
         "sm90=sm90_bf16_bf16_64x128x64_s8_c1x1_bk+nopdl:none": "64x128 no PDL",
         "sm90=sm90_bf16_bf16_64x64x64_s13_c1x1_bk+nopdl:none": "64x64 no PDL"}
print("## M x 4096 x 4096, µs (new r1 / r2 | old r1 / r2)\n")
print("| M | " + " | ".join(names.values()) + " |")
print("|---:|" + "---|" * len(names))
for m in sorted(sq, key=int):
    r = sq[m]
    cells = [f"{r['new1'][k]:.2f} / {r['new2'][k]:.2f} \\| {r['old1'][k]:.2f} / {r['old2'][k]:.2f}" for k in names]
    print(f"| {m} | " + " | ".join(cells) + " |")
load = lambda f: {(r["name"], r["M"]): r for r in json.load(open(f"{here}/bench/{f}.json"))["rows"]}
runs = {v: [load(f"ragged_{v}_{i}") for i in (1, 2)] for v in ("new", "old")}
ratio = lambda r: r["us"]["cublaslt"] / r["us"]["sm90"]
geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
print("\n## ragged suite: cuBLASLt / ours (r1 / r2), ours' time new / old (r1 / r2)\n")
print("| shape | M | new | old | new / old time |")
print("|---|---:|---|---|---|")
keys = sorted(runs["new"][0], key=lambda k: (k[0], k[1]))
for k in keys:
    n = [ratio(x[k]) for x in runs["new"]]; o = [ratio(x[k]) for x in runs["old"]]
    t = [a[k]["us"]["sm90"] / b[k]["us"]["sm90"] for a, b in zip(runs["new"], runs["old"])]
    print(f"| {k[0]} | {k[1]} | {n[0]:.3f} / {n[1]:.3f} | {o[0]:.3f} / {o[1]:.3f} | {t[0]:.3f} / {t[1]:.3f} |")
for sel, label in ((lambda k: True, "all 35"), (lambda k: k[1] <= 256, "M <= 256 (25)"), (lambda k: k[1] > 256, "M 333 / 1000 (10)")):
    ks = [k for k in keys if sel(k)]
    print(f"\ngeomean cuBLASLt / ours, {label}: new " + " / ".join(f"{geo([ratio(x[k]) for k in ks]):.3f}" for x in runs["new"])
          + ", old " + " / ".join(f"{geo([ratio(x[k]) for k in ks]):.3f}" for x in runs["old"]))
