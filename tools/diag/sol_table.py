#!/usr/bin/env python3
"""Reads a graphgemm_bench JSON that has speed-of-light backends (sol, sol=..., sol+pdl..., or the
tensor cores' sol=math) beside cublaslt and sm90, and prints per shape: the floor, cuBLASLt, ours,
every sol column, then the best sol against the floor, cuBLASLt against the best sol (the most any
one-launch kernel could gain on cuBLASLt on that shape, in the bench's regime; with sol=math alone,
the most any wgmma kernel could) and ours against the best sol; then per suite the geometric means
and how many shapes the best sol brings within 1.15x of the floor.

    tools/diag/sol_table.py bench/results/h100/experiments_s17/sol/call3_r1_gemm_bf16.json
"""
import json
import math
import sys


def main(path):
    rows = json.load(open(path))["rows"]
    sols = [k for k in rows[0]["us"] if k.startswith("sol")]
    if not sols or "cublaslt" not in rows[0]["us"] or "sm90" not in rows[0]["us"]:
        sys.exit(f"{path}: needs cublaslt, sm90 and at least one sol backend")
    print(f"{'name':18s} {'M':>5} {'N':>6} {'K':>6} {'floor':>7} {'cublt':>7} {'sm90':>7} "
          + " ".join(f"{k[:11]:>11}" for k in sols) + "  sol/floor cublt/sol sm90/sol")
    groups = {}
    for r in rows:
        u = r["us"]
        present = [u[k] for k in sols if u[k]]
        if not present or not u["cublaslt"] or not u["sm90"]:
            continue
        best = min(present)
        print(f"{r['name'][:18]:18s} {r['M']:5d} {r['N']:6d} {r['K']:6d} {r['floor_us']:7.2f} {u['cublaslt']:7.2f} "
              f"{u['sm90']:7.2f} " + " ".join(f"{u[k]:11.2f}" if u[k] else f"{'n/a':>11}" for k in sols)
              + f"  {best / r['floor_us']:9.2f} {u['cublaslt'] / best:9.2f} {u['sm90'] / best:8.2f}")
        key = r["suite"] if r["suite"] != "llm" else ("llm M<=256" if r["M"] <= 256 else "llm M>=1024")
        groups.setdefault(key, []).append((u["cublaslt"] / best, u["cublaslt"] / u["sm90"], best / r["floor_us"]))
    for key, v in groups.items():
        def g(i):
            return math.exp(sum(math.log(x[i]) for x in v) / len(v))
        within = sum(1 for x in v if x[2] <= 1.15)
        print(f"{key}: {len(v)} shapes; geomean cublaslt/sol {g(0):.3f}, cublaslt/sm90 {g(1):.3f}, sol/floor {g(2):.3f}; "
              f"sol within 1.15x of the floor on {within}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
