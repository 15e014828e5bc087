#!/usr/bin/env python3
"""Session 52: per row, each backend's time as cuBLASLt / backend (higher is faster) and the
geomean per backend; then each stream-K backend's time against the same kernel unsplit (where the
run has it) and against automatic (`sm90`)."""
import json
import math
import sys


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


d = json.load(open(sys.argv[1]))
rows = d["rows"]
names = sorted(k for k in rows[0]["us"] if k != "cublaslt")
short = {n: n.replace("sm90=sm90_bf16_bf16_", "").replace("128x256x64_s4_", "") for n in names}
pairs = []  # (label, numerator backend, denominator backend)
for n in names:
    if n.endswith(":streamk"):
        base = n[: -len(":streamk")]
        if base + ":none" in names:
            pairs.append((short[n] + "/none", n, base + ":none"))
        pairs.append((short[n] + "/auto", n, "sm90"))
print(sys.argv[1])
print(f"{'shape':34s}" + "".join(f"{short[n]:>16s}" for n in names) + "".join(f"{p[0]:>22s}" for p in pairs))
ratios = {n: [] for n in names}
pr = {p[0]: [] for p in pairs}
for r in rows:
    us = r["us"]
    line = f"{r['name'] + ' ' + str(r['M']) + 'x' + str(r['N']) + 'x' + str(r['K']):34s}"
    for n in names:
        ratios[n].append(us["cublaslt"] / us[n])
        line += f"{us['cublaslt'] / us[n]:16.3f}"
    for label, a, b in pairs:
        pr[label].append(us[a] / us[b])
        line += f"{pr[label][-1]:22.3f}"
    print(line)
print(f"{'geomean':34s}" + "".join(f"{geomean(ratios[n]):16.3f}" for n in names) +
      "".join(f"{geomean(pr[p[0]]):22.3f}" for p in pairs))
