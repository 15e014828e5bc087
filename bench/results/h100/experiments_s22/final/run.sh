#!/usr/bin/env bash
# Session 22 final device runs: the committed sources prebuilt (GPU tests, demo, bench, graph bench;
# call 7: 4fe6aba's as build-probe/s22f, call 12: fee70d7's as build-probe/s22g, the default); the
# suites, the split-K table, the speed of light and the graph bench, then 128x1024x16384 (the CPU
# test's cluster-sum shape since the 64x128 refit) against the workspace splits automatic did not take.
BUILD=${BUILD:-build-probe/s22g}
OUT=$OUT BUILD=$BUILD STEPS="test graph sol splitk bench" \
  BENCH_ARGS="--suites square,llm,splitk --dtypes bf16 --backends cublaslt,sm90,sm90:none,sol" BENCH_TIMEOUT=450 \
  tools/device_run.sh
B=$BUILD/bench/graphgemm_bench
K128=sm90=sm90_bf16_bf16_128x128x64_s6_c1x1_bk K64=sm90=sm90_bf16_bf16_64x128x64_s8_c1x1_bk
for r in 1 2; do
  $B --shape 128x1024x16384 --dtypes bf16 --no-peak --out $OUT/c128x1024_r$r \
    --backends "cublaslt,sm90,$K128:parallel:8:c8,$K128:parallel:8:c1,$K128:parallel:16:c1,$K64:parallel:8:c1,$K64:parallel:16:c1" \
    | grep '^\[1/1\]'
done
