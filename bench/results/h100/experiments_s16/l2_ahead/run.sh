#!/usr/bin/env bash
# Session 16 experiment (issue 3): B prefetched into L2 ahead of the shared-memory ring, in groups
# (sm90_trace built with -DGRAPHGEMM_EXPERIMENT_L2_AHEAD=A -DGRAPHGEMM_EXPERIMENT_L2_GROUP=G): per-launch
# medians in a graph of 40, binaries alternating, two rounds.
set -u
d=build-probe/s16d; chmod +x $d/trace_*
for b in base a6g4; do echo "$b: $(cuobjdump -sass $d/trace_$b | grep -c UTMAPF) UTMAPF"; done
shapes=("256 6144 4096 128 none 1 pdl" "256 7168 2048 128 none 1 pdl" "256 8192 28672 128 none 1 -" "128 4096 4096 128 none 1 pdl" "1024 1024 1024 64 none 1 -" "4096 4096 4096 128 none 1 -" "256 4096 14336 128 none 1 pdl")
for r in 1 2; do for s in "${shapes[@]}"; do for b in base a6g4 a12g8 a6g1; do
  line=$($d/trace_$b $s 2>&1 | grep -m1 "per launch")
  echo "r$r | $s | $b | $(echo "$line" | grep -o 'median [0-9.]* us (min [0-9.]*)')"
done; done; done > $OUT/l2_ahead.txt
cat $OUT/l2_ahead.txt
