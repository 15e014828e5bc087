#!/usr/bin/env bash
# Session 18, call 6: cooperative 64-row tiles with stages of several k-blocks (64x64x256 s3,
# 64x128x128 s4, B N x K) against today's (64x64x64 s13, 64x128x64 s8), forced by name, llm
# M = 64..256 (and below), two rounds. Prebuilt bench (build-probe/s18c).
set -uo pipefail
cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
B=/tmp/gg_bench; gunzip -c build-probe/s18c/bench/graphgemm_bench.gz > $B && chmod +x $B
K=sm90=sm90_bf16_bf16_
for round in 1 2; do
  $B --suites llm --max-m 256 --dtypes bf16 --no-peak --out $OUT/r$round \
    --backends cublaslt,sm90,sol,${K}64x64x64_s13_c1x1_bk:none,${K}64x64x256_s3_c1x1_bk:none,${K}64x128x64_s8_c1x1_bk:none,${K}64x128x128_s4_c1x1_bk:none \
    > $OUT/r$round.log 2>&1; echo "round $round rc $?"
done
cd $OUT && tar czf results.tgz r1 r2 && ls
