#!/usr/bin/env bash
# Session 16 experiment (issue 3): mbarrier.try_wait with a suspend-time hint (10 ms: sleep until
# the phase completes; 1 us) on every barrier wait, against none (trace builds); per-launch medians
# in a graph of 40, binaries alternating, three rounds.
set -u
d=build-probe/s16f; chmod +x $d/trace_*
shapes=("1024 1024 1024 64 none 1 -" "256 6144 4096 128 none 1 pdl" "256 7168 2048 128 none 1 pdl" "128 4096 4096 128 none 1 pdl" "2048 2048 2048 128 none 1 -" "4096 4096 4096 128 none 1 -" "64 4096 4096 64 none 1 pdl" "128 128 16384 64 parallel 32" "256 8192 28672 128 none 1 -")
for r in 1 2 3; do for s in "${shapes[@]}"; do for b in base s10m s1k; do
  line=$($d/trace_$b $s 2>&1 | grep -m1 "per launch")
  echo "r$r | $s | $b | $(echo "$line" | grep -o 'median [0-9.]* us (min [0-9.]*)')"
done; done; done > $OUT/suspend.txt
python3 - $OUT/suspend.txt <<'PY'
import re, sys, collections
d = collections.defaultdict(list); order = []
for line in open(sys.argv[1]):
    p = [x.strip() for x in line.split('|')]
    m = re.search(r'median ([0-9.]+)', p[3])
    if not m: continue
    d[(p[1], p[2])].append(float(m.group(1)))
    if p[1] not in order: order.append(p[1])
for s in order:
    b = sum(d[(s, 'base')]) / 3
    print(f"{s:34s} base {b:8.2f}  s10m {sum(d[(s,'s10m')])/3/b:.3f}  s1k {sum(d[(s,'s1k')])/3/b:.3f}")
PY
