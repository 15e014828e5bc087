#!/usr/bin/env python3
"""Sessions 39 calls 6 / 8: time / floor per backend from the bench logs of two rounds (r1_X.log, r2_X.log)."""
import collections, re, sys
d, tag = sys.argv[1], sys.argv[2]
res = collections.defaultdict(dict)
for rnd in (1, 2):
    for line in open(f'{d}/r{rnd}_{tag}.log'):
        m = re.search(r'bf16 (\S+) (\d+x\d+x\d+)\s+floor ([\d.]+) us(.*)', line)
        if m:
            name, shape, f, rest = m.groups()
            res[(name, shape)][rnd] = (float(f), dict((k, float(v)) for k, v in re.findall(r'(\S+) ([\d.]+) us', rest)))
cols = None
for k, x in res.items():
    if cols is None:
        cols = list(x[1][1].keys())
        print(f"{'shape':30s}", ' '.join(c.replace('sm90=sm90_bf16_bf16_', '').replace('_bk', '')[-13:].rjust(13) for c in cols))
    print(f"{k[0] + ' ' + k[1]:30s}", ' '.join(f"{x[1][1][c] / x[1][0]:6.3f}/{x[2][1][c] / x[2][0]:6.3f}" for c in cols))
