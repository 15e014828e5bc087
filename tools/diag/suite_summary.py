#!/usr/bin/env python3
"""The issue-goal figures of graphgemm_bench results (one block per JSON; every ratio is from one run):
geomean cuBLASLt / ours per suite group (and cuBLASLt / unsplit where `sm90:none` ran; `ragged` too where
it ran, with its lowest shape), the square and
llm M >= 1024 shapes below 0.95x, 8192^3, llm M <= 256 within 1.15x of the floor, 128x128x16384
against the floor (and `sol` where it ran), and splitk shapes where automatic is >2% slower than unsplit.

  tools/diag/suite_summary.py RESULT.json [RESULT.json ...] [--backend sm90]

NOTES: cuBLASLt runs the splitk shapes 4-6% slower in a run that also times `sol` (H100, session 24,
bench/results/h100/experiments_s24/benchcfg/); take suite figures from runs without it.
"""
import argparse
import json
import math


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


GROUPS = {
    "square": lambda r: r["suite"] == "square",
    "llm M<=256": lambda r: r["suite"] == "llm" and r["M"] <= 256,
    "llm M>=1024": lambda r: r["suite"] == "llm" and r["M"] >= 1024,
    "splitk": lambda r: r["suite"] == "splitk",
    "ragged": lambda r: r["suite"] == "ragged",  # M just past multiples of the tiles (graphgemm's own)
}


def summarize(path, ours):
    all_rows = json.load(open(path))["rows"]
    # A backend that does not run a shape (e.g. ours on int8) has a null time there: left out, counted.
    rows = [r for r in all_rows if r["us"].get(ours) and r["us"].get("cublaslt")]
    ratio = lambda r, b=ours: r["us"]["cublaslt"] / r["us"][b]
    print(path)
    if len(rows) < len(all_rows):
        print(f"  {len(all_rows) - len(rows)} of {len(all_rows)} rows without a time for {ours} or cuBLASLt: left out")
    if not rows:
        return
    for name, keep in GROUPS.items():
        rs = [r for r in rows if keep(r)]
        if not rs:
            continue
        none = [ratio(r, "sm90:none") for r in rs if r["us"].get("sm90:none")]
        extra = f"  unsplit {geomean(none):.3f}" if len(none) == len(rs) else ""
        print(f"  {name:12s} cuBLASLt/ours {geomean([ratio(r) for r in rs]):.3f}{extra}  n={len(rs)}")
    low = [r for r in rows if (GROUPS["square"](r) or GROUPS["llm M>=1024"](r)) and ratio(r) < 0.95]
    print("  square / llm M>=1024 below 0.95:", ", ".join(f"{r['name']} {r['M']}x{r['N']}x{r['K']} {ratio(r):.3f}" for r in low) or "none")
    for r in rows:
        if r["suite"] == "square" and r["M"] == 8192:
            print(f"  8192^3 {ratio(r):.3f}")
        if r["suite"] == "splitk" and (r["M"], r["N"], r["K"]) == (128, 128, 16384):
            sol = f" sol {r['us']['sol']:.2f}" if "sol" in r["us"] else ""
            print(f"  128x128x16384 ours {r['us'][ours]:.2f} cuBLASLt {r['us']['cublaslt']:.2f}{sol} floor {r['floor_us']:.2f}"
                  f" (ours {r['us'][ours] / r['floor_us']:.2f}x the floor, {ratio(r):.2f}x cuBLASLt)")
    small = [r for r in rows if GROUPS["llm M<=256"](r)]
    if small:
        print("  llm M<=256 within 1.15x of the floor:", sum(r["us"][ours] <= 1.15 * r["floor_us"] for r in small), "of", len(small))
    ragged = [r for r in rows if GROUPS["ragged"](r)]
    if ragged:
        worst = min(ragged, key=ratio)
        print(f"  ragged lowest: {worst['name']} {worst['M']}x{worst['N']}x{worst['K']} {ratio(worst):.3f}; below 0.95:",
              sum(ratio(r) < 0.95 for r in ragged), "of", len(ragged))
    slow = [r for r in rows if GROUPS["splitk"](r) and "sm90:none" in r["us"] and r["us"][ours] > 1.02 * r["us"]["sm90:none"]]
    if any("sm90:none" in r["us"] for r in rows if GROUPS["splitk"](r)):
        print("  splitk automatic >2% slower than unsplit:", ", ".join(f"{r['M']}x{r['N']}x{r['K']}" for r in slow) or "none")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results", nargs="+")
    ap.add_argument("--backend", default="sm90")
    a = ap.parse_args()
    for p in a.results:
        summarize(p, a.backend)


if __name__ == "__main__":
    main()
