#!/usr/bin/env bash
# Session 39, call 6: the gemv kernels held to 64 registers (__launch_bounds__ min CTAs: 4 of 8 warps
# or 2 of 16 an SM, small spills) against the unbounded ones (80 / 82 registers: 3 / 1 an SM), both
# forced by name beside automatic, llm / splitk M <= 8 (M = 1) and five M = 8 shapes, two rounds.
set -u
B=build-probe/s39o/bench/graphgemm_bench
gunzip -f $B.gz; chmod +x $B
nvidia-smi --query-gpu=name --format=csv,noheader
K="sm90=sm90_bf16_bf16_gemv8_w8_u2_bk,sm90=sm90_bf16_bf16_gemv8_w8_u2_o4_bk,sm90=sm90_bf16_bf16_gemv8_w16_u2_bk,sm90=sm90_bf16_bf16_gemv8_w16_u2_o2_bk"
for round in 1 2; do
  $B --suites llm --max-m 8 --dtypes bf16 --no-peak --backends cublaslt,sm90,$K --out $OUT/tmp > $OUT/r${round}_suite.log 2>&1 || echo "suite rc=$?"
  for s in 8x4096x4096 8x6144x4096 8x2112x7168 8x7168x2048 8x4096x14336; do
    $B --shape $s --dtypes bf16 --no-peak --backends cublaslt,sm90,$K --out $OUT/tmp >> $OUT/r${round}_shapes.log 2>&1 || echo "$s rc=$?"
  done
done
rm -rf $OUT/tmp
