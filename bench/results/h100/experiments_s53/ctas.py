#!/usr/bin/env python3
"""Session 53: per sm90_trace file (SM90_TRACE_CTAS=1), the launch's median and the CTAs' last
main loops and hand-offs (min / median / max, us after the first CTA's entry)."""
import re
import statistics
import sys

for path in sys.argv[1:]:
    done, hand = [], []
    launch = "?"
    for line in open(path):
        m = re.search(r"median ([\d.]+) us", line)
        if m and launch == "?":
            launch = m[1]
        m = re.search(r"main loop done\s+([\d.]+) stored/handed off\s+([\d.]+)", line)
        if m:
            done.append(float(m[1]))
            hand.append(float(m[2]))
    if not done:
        print(f"{path.split('/')[-1]:22s} no CTA lines")
        continue
    print(f"{path.split('/')[-1]:22s} launch {launch:>9s}  main loops done {min(done):8.1f} {statistics.median(done):8.1f} "
          f"{max(done):8.1f}  handed off max {max(hand):8.1f}")
