#!/usr/bin/env bash
# Session 16 experiment (issue 3): the producer's first loads issued before the CTA barrier
# (trace_hoist) against the current kernel (trace_base); per-launch medians in a graph of 40,
# binaries alternating, three rounds.
set -u
d=build-probe/s16d; chmod +x $d/trace_*
shapes=("1024 1024 1024 64 none 1 -" "256 6144 4096 128 none 1 pdl" "256 6144 4096 128 none 1 -" "256 7168 2048 128 none 1 pdl" "128 4096 4096 128 none 1 pdl" "2048 2048 2048 128 none 1 -" "4096 4096 4096 128 none 1 -" "64 4096 4096 64 none 1 pdl" "512 4096 4096 128 none 1 -")
for r in 1 2 3; do for s in "${shapes[@]}"; do for b in base hoist; do
  line=$($d/trace_$b $s 2>&1 | grep -m1 "per launch")
  echo "r$r | $s | $b | $(echo "$line" | grep -o 'median [0-9.]* us (min [0-9.]*)')"
done; done; done > $OUT/hoist.txt
cat $OUT/hoist.txt
for b in base hoist; do echo "== $b 1024^3"; $d/trace_$b 1024 1024 1024 64 none 1 - | grep -E "barriers|first TMA|first stage|last main|drained"; done
