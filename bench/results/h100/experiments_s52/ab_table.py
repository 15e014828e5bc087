#!/usr/bin/env python3
"""Session 52: per row, cuBLASLt / backend for each backend (higher is faster), and automatic's
time against the forced unsplit tile (auto / none: below 1 where stream-K gained); geomeans."""
import json
import math
import sys


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


for path in sys.argv[1:]:
    rows = json.load(open(path))["rows"]
    names = sorted(k for k in rows[0]["us"] if k != "cublaslt")
    none = [n for n in names if n.endswith(":none")][0]
    print(path)
    print(f"{'shape':26s}" + "".join(f"{n[-24:]:>26s}" for n in names) + f"{'auto / none':>14s}")
    ratios = {n: [] for n in names}
    ab = []
    for r in rows:
        us = r["us"]
        line = f"{str(r['M']) + 'x' + str(r['N']) + 'x' + str(r['K']):26s}"
        for n in names:
            ratios[n].append(us["cublaslt"] / us[n])
            line += f"{ratios[n][-1]:26.3f}"
        ab.append(us["sm90"] / us[none])
        print(line + f"{ab[-1]:14.3f}")
    print(f"{'geomean':26s}" + "".join(f"{geomean(ratios[n]):26.3f}" for n in names) + f"{geomean(ab):14.3f}")
