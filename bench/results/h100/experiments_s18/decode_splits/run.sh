#!/usr/bin/env bash
# Session 18, call 1: decode-sized llm shapes (M <= 256) against forced split-K / swap-AB tiles and
# the speed of light, to see what the heuristic leaves on the table. Prebuilt bench (build-probe/s18).
set -uo pipefail
cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
B=/tmp/gg_bench; gunzip -c build-probe/s18/bench/graphgemm_bench.gz > $B && chmod +x $B
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv
SW16=sm90=sm90_bf16_bf16_16x64x64_s20_c1x1_sw_bk
SW128=sm90=sm90_bf16_bf16_16x128x64_s12_c1x1_sw_bk
$B --suites llm --max-m 16 --dtypes bf16 --no-peak --out $OUT/m16 \
  --backends cublaslt,sm90,sol,sol=loads/8,$SW16:parallel:2,$SW16:parallel:3,$SW16:parallel:4,$SW16:parallel:6,$SW128:none,$SW128:parallel:2,$SW128:parallel:4 \
  > $OUT/m16.log 2>&1; echo "m16 rc $?"
$B --suites llm --max-m 256 --dtypes bf16 --no-peak --out $OUT/m256 \
  --backends cublaslt,sm90,sol,sol=loads/8,sm90:parallel:2,sm90:parallel:3,sm90:parallel:4,sm90:streamk \
  > $OUT/m256.log 2>&1; echo "m256 rc $?"
cd $OUT && tar czf results.tgz m16 m256 m16.log m256.log && ls -la
