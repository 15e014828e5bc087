#!/usr/bin/env python3
"""Session 51: per row, each backend's time as cuBLASLt / backend (higher is faster), and the
geomean per backend; the stream-K column against the same tile unsplit."""
import json
import math
import sys


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


d = json.load(open(sys.argv[1]))
rows = d["rows"]
names = [k for k in rows[0]["us"] if k != "cublaslt"]
short = {n: n.replace("sm90=sm90_bf16_bf16_", "") for n in names}
print(sys.argv[1])
print(f"{'shape':34s}" + "".join(f"{short[n][-28:]:>30s}" for n in names) + "   sk/none")
ratios = {n: [] for n in names}
sk_none = []
for r in rows:
    us = r["us"]
    line = f"{r['name'] + ' ' + str(r['M']) + 'x' + str(r['N']) + 'x' + str(r['K']):34s}"
    for n in names:
        v = us.get(n)
        if v:
            ratios[n].append(us["cublaslt"] / v)
            line += f"{us['cublaslt'] / v:30.3f}"
        else:
            line += f"{'-':>30s}"
    sk = [n for n in names if n.endswith(":streamk")]
    no = [n for n in names if n.endswith(":none")]
    if sk and no and us.get(sk[0]) and us.get(no[0]):
        sk_none.append(us[sk[0]] / us[no[0]])
        line += f"   {sk_none[-1]:.3f}"
    print(line)
print(f"{'geomean cuBLASLt / backend':34s}" + "".join(f"{geomean(ratios[n]):30.3f}" for n in names) +
      f"   {geomean(sk_none):.3f}")
