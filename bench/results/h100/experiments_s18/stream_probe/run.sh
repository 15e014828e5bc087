#!/usr/bin/env bash
# Session 18, call 2: tools/diag/tma_stream_probe over the decode shapes' weight tiles (prebuilt here).
cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
P=build-probe/s18/tma_stream_probe
for a in "4096 4096 64" "4096 4096 128" "6144 4096 64" "6144 4096 128" "2112 7168 64" "7168 2048 64" "7168 2048 128" \
         "10240 8192 64" "10240 8192 128" "28672 4096 64"; do
  $P $a; echo
done 2>&1 | tee $OUT/stream_probe.txt
