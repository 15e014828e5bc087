#!/usr/bin/env bash
# Session 18, call 11: the finishing spread of the decode launches, CTA by CTA and SM by SM
# (SM90_TRACE_CTAS=1), with the kernel's own grid and with the co-resident grid ("full": busy CTAs
# spread over all SMs), three times each to see whether the late SMs are the same.
cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
T=build-probe/sm90_trace
for a in "1 6144 4096 sw16x64 none 1 pdl 1 -" "1 6144 4096 sw16x64 none 1 pdl 1 full" "1 8192 8192 sw16x64 none 1 pdl 1 -"; do
  for r in 1 2 3; do echo "== $a (run $r)"; SM90_TRACE_CTAS=1 $T $a; echo; done
done > $OUT/swap_trace_ctas.txt 2>&1
grep -A1 "^== " $OUT/swap_trace_ctas.txt | grep -v "^--"
