#!/usr/bin/env python3
"""Session 51, call 4: tail-only stream-K at 4096^3 (128x256: 512 tiles x 64 k-blocks on 132 CTAs),
per CTA: its shared range (from the partition of sk_tail_only.patch), when its last main loop ended,
when it handed off / stored, and for owners when their contributors' main loops ended."""
import re
import statistics
import sys

TILES, KB, CTAS = 512, 64, 132
dp = (TILES // CTAS) * CTAS
it = (TILES - dp) * KB
q, r = divmod(it, CTAS)
begin = lambda c: dp * KB + c * q + min(c, r)

t = {}
for line in open(sys.argv[1]):
    m = re.match(r"\s+cta\s+(\d+) sm\s+\d+ first stage\s+([\d.]+) main loop done\s+([\d.]+) stored/handed off\s+([-\d.]+)", line)
    if m:
        t[int(m.group(1))] = (float(m.group(3)), float(m.group(4)))

rows = []
for c in range(CTAS):
    b, e = begin(c), begin(c + 1)
    first_tile, last_tile = b // KB, (e - 1) // KB
    owner_tile = last_tile if (last_tile * KB >= b) else None  # its range holds k-block 0 of last_tile
    contributors = []
    if owner_tile is not None:
        d = c + 1
        while d < CTAS and begin(d) < (owner_tile + 1) * KB:
            contributors.append(d)
            d += 1
    ml, ho = t[c]
    contrib_ml = max((t[d][0] for d in contributors), default=None)
    rows.append((c, b % KB, (e - 1) % KB + 1, owner_tile is not None, contributors, ml, ho, contrib_ml))

owners = [x for x in rows if x[3]]
print(f"q = {q}, r = {r}; owners {len(owners)} of {CTAS}")
print("fix-up (handed off - own last main loop), owners: median %.2f, max %.2f" %
      (statistics.median(x[6] - x[5] for x in owners), max(x[6] - x[5] for x in owners)))
lag = [x[7] - x[5] for x in owners if x[7] is not None]
print("contributors' last main loop - owner's, owners: median %.2f, min %.2f, max %.2f" %
      (statistics.median(lag), min(lag), max(lag)))
after = [x[6] - max(x[5], x[7]) for x in owners if x[7] is not None]
print("handed off - max(owner's, contributors' last main loop): median %.2f, max %.2f" %
      (statistics.median(after), max(after)))
print("last main loop done over all CTAs: median %.2f, max %.2f; handed off max %.2f" %
      (statistics.median(x[5] for x in rows), max(x[5] for x in rows), max(x[6] for x in rows)))
