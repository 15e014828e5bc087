#!/usr/bin/env bash
# Session 18, call 10: per-CTA timelines (tools/diag/sm90_trace, prebuilt as build-probe/sm90_trace)
# of the swap-AB kernel on the decode shapes still outside 1.15x of the floor, and one inside.
cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
T=build-probe/sm90_trace
for a in "1 4096 4096 sw16x64 none 1 pdl" "1 4096 4096 sw16x64x256 none 1 pdl" "1 6144 4096 sw16x64 none 1 pdl" \
         "1 6144 4096 sw16x128 none 1 pdl" "1 7168 2048 sw16x64 none 1 pdl" "1 2112 7168 sw16x64x256 parallel 2 pdl 2" \
         "1 8192 8192 sw16x64 none 1 pdl" "1 4096 4096 sw16x64 none 1 -"; do
  echo "== $a"; $T $a; echo
done 2>&1 | tee $OUT/swap_trace.txt
