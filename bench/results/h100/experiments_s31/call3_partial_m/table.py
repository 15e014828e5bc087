#!/usr/bin/env python3
"""Prints table.md from this directory's m*.log (graphgemm_bench's one-line results). Run from the repo root."""
import glob
import re

d = "bench/results/h100/experiments_s31/call3_partial_m"
print("GPU µs per GEMM, M x 4096 x 4096 bf16, H100 (from m*.log by table.py; M = 96: m96_printed.txt)\n")
rows = []
for f in sorted(glob.glob(f"{d}/m*.log"), key=lambda x: int(re.search(r"m(\d+)\.log", x).group(1))):
    for line in open(f):
        if line.startswith("[1/1] bf16"):
            rows.append((re.search(r"shape (\d+)x", line).group(1), re.findall(r"(\S+) ([\d.]+) us", line)))
names = [v[0].replace("sm90=sm90_bf16_bf16_", "").replace("_c1x1_bk", "") for v in rows[0][1]]
print("| M | " + " | ".join(names) + " |")
print("|---" * (len(names) + 1) + "|")
for m, vals in rows:
    print("| " + m + " | " + " | ".join("%.2f" % float(v[1]) for v in vals) + " |")
