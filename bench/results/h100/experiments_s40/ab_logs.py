#!/usr/bin/env python3
"""Session 40: A/B from the bench logs of DIR/r{1,2}_{new,old}.log (automatic `sm90` column): the rows
whose new / old time moved by more than THRESH in either round, with time / floor both ways."""
import re
import sys

d, thresh = sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 0.015
pat = re.compile(r"bf16 (\S+) (\d+)x(\d+)x(\d+)\s+floor ([0-9.]+) us\s+cublaslt ([0-9.]+) us\s+sm90 ([0-9.]+) us")


def parse(fn):
    out = {}
    for line in open(fn):
        m = pat.search(line)
        if m:
            out[(m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4)))] = tuple(map(float, m.group(5, 6, 7)))
    return out


R = {(r, v): parse(f"{d}/r{r}_{v}.log") for r in (1, 2) for v in ("new", "old")}
print(f"{len(R[(1, 'new')])} shapes; rows moved by more than {thresh:.1%} in a round:")
print(f"{'name':18} {'M':>3} {'N':>6} {'K':>6}  new/old r1 r2   new/floor r1 r2   old/floor r1 r2")
for k in R[(1, "new")]:
    ratio = [R[(r, "new")][k][2] / R[(r, "old")][k][2] for r in (1, 2)]
    if max(abs(x - 1) for x in ratio) <= thresh:
        continue
    fn = [R[(r, "new")][k][2] / R[(r, "new")][k][0] for r in (1, 2)]
    fo = [R[(r, "old")][k][2] / R[(r, "old")][k][0] for r in (1, 2)]
    print(f"{k[0]:18} {k[1]:3d} {k[2]:6d} {k[3]:6d}  {ratio[0]:.3f} {ratio[1]:.3f}   {fn[0]:.3f} {fn[1]:.3f}   {fo[0]:.3f} {fo[1]:.3f}")
