#!/usr/bin/env python3
"""Call D's A/B table: per suite group, cuBLASLt / ours (geomean, each ratio from one bench run) of the
new library's runs (new1, new2) and the base library's (base1, base2, and base0 from call C where
given), then per row the mean ratio of the new runs over the base runs' (> 1: the new library gains
against cuBLASLt), its two rounds' spread, and the sustained 'square' runs (newsus / basesus).

  ab_suites.py DIR [BASE0_DIR]    (DIR holds new1/ base1/ new2/ base2/ newsus/ basesus/)
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../tools/diag"))
from suite_summary import GROUPS, geomean  # noqa: E402


def load(d, name):
    p = os.path.join(d, name, "gemm_bf16.json")
    if not os.path.exists(p):
        return None
    return {(r["suite"], r["name"], r["M"], r["N"], r["K"]): r["us"]["cublaslt"] / r["us"]["sm90"]
            for r in json.load(open(p))["rows"] if "sm90" in r["us"] and "cublaslt" in r["us"]}


def group_of(key):
    r = {"suite": key[0], "M": key[2]}
    return next((g for g, keep in GROUPS.items() if keep(r)), "other")


def main():
    d = sys.argv[1]
    runs = {n: load(d, n) for n in ("new1", "base1", "new2", "base2", "newsus", "basesus")}
    if len(sys.argv) > 2:
        runs["base0"] = load(sys.argv[2], "base0")
    runs = {n: r for n, r in runs.items() if r}
    names = [n for n in ("base0", "new1", "base1", "new2", "base2", "newsus", "basesus") if n in runs]
    keys = sorted(set.intersection(*(set(r) for n, r in runs.items() if not n.endswith("sus"))),
                  key=lambda k: (k[0], k[2], k[1]))
    print("cuBLASLt / ours, geomean per group")
    print(f"{'group':14s}" + "".join(f"{n:>9s}" for n in names) + "   new/base")
    for g in GROUPS:
        ks = [k for k in keys if group_of(k) == g]
        if not ks:
            continue
        cells = []
        for n in names:
            kk = [k for k in ks if k in runs[n]]
            cells.append(geomean([runs[n][k] for k in kk]) if len(kk) == len(ks) else float("nan"))
        nb = geomean([(runs["new1"][k] * runs["new2"][k]) ** 0.5 / (runs["base1"][k] * runs["base2"][k]) ** 0.5
                      for k in ks]) if {"new1", "new2", "base1", "base2"} <= set(runs) else float("nan")
        print(f"{g:14s}" + "".join(f"{c:9.3f}" for c in cells) + f"   {nb:.3f}  n={len(ks)}")
    if {"new1", "new2", "base1", "base2"} <= set(runs):
        print("\nper row: new / base (cuBLASLt / ours of the new runs over the base runs'; round 1, round 2)")
        for k in keys:
            r1 = runs["new1"][k] / runs["base1"][k]
            r2 = runs["new2"][k] / runs["base2"][k]
            print(f"{k[0]:7s} {k[1]:22s} {k[2]:5d}x{k[3]:5d}x{k[4]:5d}  {math.sqrt(r1 * r2):.3f}  ({r1:.3f}, {r2:.3f})")
    if "newsus" in runs and "basesus" in runs:
        print("\nsustained 'square' (400 ms): cuBLASLt / ours new, base")
        for k in sorted(set(runs["newsus"]) & set(runs["basesus"]), key=lambda k: k[2]):
            print(f"{k[2]:5d}^3  {runs['newsus'][k]:.3f}  {runs['basesus'][k]:.3f}")


if __name__ == "__main__":
    main()
