#!/usr/bin/env bash
# Session 19, call 5: a 64x128 tile in 2x1 clusters (the two M tiles of a cluster share B by
# multicast, as cuBLASLt's 1024^3 kernel, nvjet 128x64 1x2, does) against the 64x128 tile alone
# and the automatic choice; square 1024 / 2048 and llm M = 64 .. 1024, two rounds
# (build-probe/s19c: the bench with the experimental instance).
set -uo pipefail
cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
B=/tmp/gg_bench; gunzip -c build-probe/s19c/bench/graphgemm_bench.gz > $B && chmod +x $B
K=sm90=sm90_bf16_bf16_
for round in 1 2; do
  $B --suites square,llm --min-m 64 --max-m 2048 --dtypes bf16 --no-peak --out $OUT/r$round \
    --backends cublaslt,sm90,${K}64x128x64_s8_c1x1_bk:none,${K}64x128x64_s8_c2x1_bk:none,${K}64x128x64_s8_c2x1_bk+pdl:none \
    > $OUT/r$round.log 2>&1; echo "round $round rc $?"
done
cd $OUT && tar czf results.tgz r1 r2 r1.log r2.log && ls
