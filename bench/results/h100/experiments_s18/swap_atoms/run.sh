#!/usr/bin/env bash
# Session 18, call 3: swap-AB stages of several k-blocks (SwapABConfig KAtoms) against today's
# one-k-block stages, forced by name, decode shapes (M <= 32) of llm and splitk. Prebuilt bench.
set -uo pipefail
cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
B=/tmp/gg_bench; gunzip -c build-probe/s18/bench/graphgemm_bench.gz > $B && chmod +x $B
K=sm90=sm90_bf16_bf16_
for round in 1 2; do
  $B --suites llm,splitk --max-m 32 --dtypes bf16 --no-peak --out $OUT/r$round \
    --backends cublaslt,sm90,sol,${K}16x64x64_s20_c1x1_sw_bk:none,${K}16x64x256_s5_c1x1_sw_bk:none,${K}16x128x64_s12_c1x1_sw_bk:none,${K}16x128x128_s6_c1x1_sw_bk:none,${K}16x64x256_s5_c1x1_sw_bk:parallel:2,${K}16x128x128_s6_c1x1_sw_bk:parallel:2,${K}32x64x256_s4_c1x1_sw_bk:none,${K}32x128x128_s5_c1x1_sw_bk:none \
    > $OUT/r$round.log 2>&1; echo "round $round rc $?"
done
cd $OUT && tar czf results.tgz r1 r2 r1.log r2.log && ls -la
