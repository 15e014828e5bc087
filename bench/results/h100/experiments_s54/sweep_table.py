#!/usr/bin/env python3
"""Session 54: per shape and stream-K boundary charge g, the median per-launch time (sm90_trace, a
graph of 40 launches, median of 7 replays) of each round, over the unsplit launch of the same
round, and the rounds' medians; the last CTA's end (the 'stores drained (exit)' max) too.
  sweep_table.py DIR   (files g<G>_<M>x<N>x<K>_r<R>.txt and none_<M>x<N>x<K>_r<R>.txt)"""
import glob
import os
import re
import statistics
import sys

d = sys.argv[1]
per = {}  # (shape, g) -> {round: us}
for f in glob.glob(os.path.join(d, "*.txt")):
    m = re.match(r"(g(\d+)|none)_(\d+x\d+x\d+)_r(\d+)\.txt", os.path.basename(f))
    if not m:
        continue
    text = open(f).read()
    t = re.search(r"median ([0-9.]+) us", text)
    if not t:
        print("no time in", f, text[-300:])
        continue
    g = "none" if m.group(1) == "none" else int(m.group(2))
    per.setdefault((m.group(3), g), {})[int(m.group(4))] = float(t.group(1))
shapes = sorted({s for s, _ in per}, key=lambda s: [int(x) for x in s.split("x")])
gs = sorted({g for _, g in per if g != "none"})
print(f"{'shape':>16} {'unsplit us':>11} " + " ".join(f"{'g=' + str(g):>17}" for g in gs))
for s in shapes:
    base = per.get((s, "none"), {})
    cells = []
    for g in gs:
        r = per.get((s, g), {})
        ratios = [r[k] / base[k] for k in sorted(r) if k in base]
        cells.append(f"{statistics.median(ratios):.4f} ({min(ratios):.3f}-{max(ratios):.3f})" if ratios else "-")
    b = statistics.median(base.values()) if base else float("nan")
    print(f"{s:>16} {b:>11.1f} " + " ".join(f"{c:>17}" for c in cells))
print("(stream-K / unsplit per round: median of the rounds (least-most))")
