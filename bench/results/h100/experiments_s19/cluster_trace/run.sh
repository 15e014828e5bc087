#!/usr/bin/env bash
# Session 19, call 6: where a 2x1-clustered launch loses its time. sm90_trace (per-CTA %globaltimer
# events) of the same tile alone and in 2x1 clusters (B multicast), 1024^3 (64x128) and
# 256x6144x4096 / 2048^3 (128x128), two rounds (build-probe/s19t: tools/diag/sm90_trace.cu built
# here with nvcc -std=c++20 -arch=sm_90a -O3 -Iinclude).
set -uo pipefail
cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
T=/tmp/sm90_trace; gunzip -c build-probe/s19t/sm90_trace.gz > $T && chmod +x $T
for round in 1 2; do
  for args in "1024 1024 1024 64" "1024 1024 1024 64c2x1" "256 6144 4096 128" "256 6144 4096 128c2x1" \
              "2048 2048 2048 128" "2048 2048 2048 128c2x1"; do
    echo "== round $round: $args"; $T $args none 1
  done
done > $OUT/trace.txt 2>&1
grep -E "^==|per launch" $OUT/trace.txt
