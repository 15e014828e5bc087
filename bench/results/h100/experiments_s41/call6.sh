#!/usr/bin/env bash
# Session 41, call 6: the 16-token gemv over several waves of CTAs (N / 16 > 3 x SMs, where
# automatic keeps swap-AB): M = 9 / 16, N 7168-57344 x K 2048-4096, automatic beside gemv16_w4_u4
# (3 CTAs an SM) and gemv16_w8_u2 forced, one run (call 5's binary).
set -u
B=${B:-build-probe/s41e}
f=$B/bench/graphgemm_bench
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
G=",sm90=sm90_bf16_bf16_gemv16_w4_u4_bk,sm90=sm90_bf16_bf16_gemv16_w8_u2_bk"
timeout 400 $f --shapes bench/results/h100/experiments_s41/fill_shapes.json --suites gemv16waves --dtypes bf16 --no-peak \
  --backends cublaslt,sm90${G} --out $OUT/waves > $OUT/waves.log 2>&1; echo "waves rc=$?"
tail -1 $OUT/waves.log
