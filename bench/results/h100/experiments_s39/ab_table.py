#!/usr/bin/env python3
"""Session 39, call 3: the A/B table (new = gemv at M <= 8, old = session 38's choice) from the logs."""
import collections, re, sys
d = sys.argv[1] if len(sys.argv) > 1 else 'call3'
res = collections.defaultdict(dict)
for rnd in (1, 2):
    for v in ('new', 'old'):
        for line in open(f'{d}/r{rnd}_{v}.log'):
            m = re.search(r'bf16 (\S+) (\d+x\d+x\d+)\s+floor ([\d.]+) us\s+cublaslt ([\d.]+) us\s+sm90 ([\d.]+) us', line)
            if m:
                name, shape, f, c, s = m.groups()
                res[(name, shape)][(rnd, v)] = (float(f), float(c), float(s))
print(f"{'shape':32s} {'floor':>6s} | new/floor r1 r2 | old/floor r1 r2 | new/old r1 r2 | cuBLASLt/new r1 r2")
for k, x in res.items():
    nf = [x[(r, 'new')][2] / x[(r, 'new')][0] for r in (1, 2)]
    of = [x[(r, 'old')][2] / x[(r, 'old')][0] for r in (1, 2)]
    no = [x[(r, 'new')][2] / x[(r, 'old')][2] for r in (1, 2)]
    ln = [x[(r, 'new')][1] / x[(r, 'new')][2] for r in (1, 2)]
    print(f"{k[0] + ' ' + k[1]:32s} {x[(1, 'new')][0]:6.2f} | {nf[0]:.3f} {nf[1]:.3f} | {of[0]:.3f} {of[1]:.3f} | "
          f"{no[0]:.3f} {no[1]:.3f} | {ln[0]:.3f} {ln[1]:.3f}")
