#!/usr/bin/env bash
# Session 18, call 8: multicast clusters at M = 128 / 256 (L2 traffic: with two M tiles, every B tile
# is read twice from L2 without a 2x1 cluster; every A tile N / 128 times without a 1x2 one). Existing
# cluster kernels forced by name beside the automatic choice, llm M <= 256, two rounds (build-probe/s18b).
set -uo pipefail
cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
B=/tmp/gg_bench; gunzip -c build-probe/s18b/bench/graphgemm_bench.gz > $B && chmod +x $B
K=sm90=sm90_bf16_bf16_
for round in 1 2; do
  $B --suites llm --max-m 256 --dtypes bf16 --no-peak --out $OUT/r$round \
    --backends cublaslt,sm90,sol,${K}128x128x64_s6_c1x1_bk:none,${K}128x128x64_s6_c1x2_bk:none,${K}128x256x64_s4_c2x1_bk:none,${K}128x128x64_s6_c2x1_pp_bk:none,${K}128x128x64_s6_c1x1_pp_bk:none \
    > $OUT/r$round.log 2>&1; echo "round $round rc $?"
done
cd $OUT && tar czf results.tgz r1 r2 && ls
