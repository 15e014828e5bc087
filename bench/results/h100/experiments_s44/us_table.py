#!/usr/bin/env python3
"""Per row: cuBLASLt's time in us, then each other backend's as cuBLASLt / it (above 1: faster than
cuBLASLt), from one graphgemm_bench JSON.
  us_table.py A.json"""
import json
import sys

run = json.load(open(sys.argv[1]))
backs = list(run["rows"][0]["us"].keys())
short = [b.replace("sm90=sm90_bf16_bf16_", "").replace("_c1x1", "").replace(":none", "") for b in backs]
print("shape".ljust(20) + " ".join(s[:14].rjust(14) for s in short))
for r in run["rows"]:
    ref = r["us"]["cublaslt"]
    cells = [f"{ref:.1f}us"] + [f"{ref / r['us'][b]:.3f}" if r['us'][b] else "n/a" for b in backs[1:]]
    print(f"{r['M']}x{r['N']}x{r['K']}".ljust(20) + " ".join(c.rjust(14) for c in cells))
