#!/usr/bin/env bash
# Session 19, call 8: what the ~0.55 us before "barriers ready" of a clustered swap-AB launch is.
# sm90_trace of deepseek_v3.a M = 1 (16x64x256, 2 slices in clusters of 2) with the split entry
# barrier (s19u), with barrier.cluster.arrive.relaxed (tr_relaxed), without fence.mbarrier_init
# (tr_nofence: a measurement only, not a correct kernel), both (tr_both); and the same kernel
# unsplit (no cluster) for reference. Two rounds.
set -uo pipefail
cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
gunzip -c build-probe/s19u/sm90_trace.gz > /tmp/tr_new && chmod +x /tmp/tr_new
for v in relaxed nofence both; do gunzip -c build-probe/s19v/tr_$v.gz > /tmp/tr_$v && chmod +x /tmp/tr_$v; done
for round in 1 2; do
  for v in new relaxed nofence both; do
    echo "== round $round $v"; /tmp/tr_$v 1 2112 7168 sw16x64x256 parallel 2 - 2
  done
  echo "== round $round new, unsplit"; /tmp/tr_new 1 2112 7168 sw16x64x256 none 1
done > $OUT/probe.txt 2>&1
grep -E "^==|per launch|barriers ready|first TMA|first stage" $OUT/probe.txt | sed 's/sm90_bf16.*graph of 40: //'
