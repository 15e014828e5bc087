#!/usr/bin/env python3
"""A/B of two graphgemm_bench results (each with cuBLASLt in its own run): per suite group, the
geometric mean of cublaslt/backend for A and B, and the shapes where they differ by more than a
threshold. Ratios only (absolute times drift between runs).

  tools/diag/compare_bench.py NEW.json OLD.json [--backend sm90] [--also sm90:streamk] [--threshold 0.05]
"""
import argparse
import json
import math
from collections import defaultdict


def ratios(path, backend):
    rows = json.load(open(path))["rows"]
    return {(r["suite"], r["name"], r["M"], r["N"], r["K"]): r["us"]["cublaslt"] / r["us"][backend]
            for r in rows if backend in r["us"] and "cublaslt" in r["us"]}


def group(key):
    suite, _, m, _, _ = key
    if suite == "llm":
        return "llm M>=1024" if m >= 1024 else ("llm M<=256" if m <= 256 else "llm other M")
    return suite


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("new")
    ap.add_argument("old")
    ap.add_argument("--backend", default="sm90")
    ap.add_argument("--also", default=None, help="another backend of NEW to list beside it")
    ap.add_argument("--threshold", type=float, default=0.05)
    a = ap.parse_args()
    new, old = ratios(a.new, a.backend), ratios(a.old, a.backend)
    also = ratios(a.new, a.also) if a.also else {}
    keys = [k for k in new if k in old]
    groups = defaultdict(list)
    for k in keys:
        groups[group(k)].append(k)
    gm = lambda d, ks: math.exp(sum(math.log(d[k]) for k in ks) / len(ks))
    print(f"{'group':14s} {'n':>3s} {'new':>6s} {'old':>6s}" + (f" {a.also:>12s}" if also else ""))
    for g, ks in groups.items():
        print(f"{g:14s} {len(ks):3d} {gm(new, ks):6.3f} {gm(old, ks):6.3f}" + (f" {gm(also, ks):12.3f}" if also else ""))
    print(f"\nshapes where new/old differ by more than {a.threshold:.0%} (cublaslt/{a.backend}):")
    for k in keys:
        if abs(new[k] / old[k] - 1) > a.threshold:
            print(f"  {k[1]:20s} {k[2]:6d} {k[3]:6d} {k[4]:6d}  new {new[k]:.3f}  old {old[k]:.3f}")


if __name__ == "__main__":
    main()
