#!/usr/bin/env bash
# Session 41, call 7: the final build (fill rule, gemv16_w16_u2, the several-waves gemv rule):
# round 2 of call 6's sweep with automatic (new rule) beside the swap-AB tiles it replaced, forced;
# then the final suite run (committed bench/results/h100/gemm_bf16.*).
set -u
B=${B:-build-probe/s41f}
f=$B/bench/graphgemm_bench
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
S=",sm90=sm90_bf16_bf16_16x64x64_s20_c1x1_sw_bk,sm90=sm90_bf16_bf16_16x128x64_s12_c1x1_sw_bk,sm90=sm90_bf16_bf16_gemv16_w4_u4_bk"
timeout 250 $f --shapes bench/results/h100/experiments_s41/fill_shapes.json --suites gemv16waves --dtypes bf16 --no-peak \
  --backends cublaslt,sm90${S} --out $OUT/waves > $OUT/waves.log 2>&1; echo "waves rc=$?"
timeout 330 $f --suites llm,square,splitk --dtypes bf16 --backends cublaslt,sm90 --out $OUT/final > $OUT/final.log 2>&1; echo "final rc=$?"
tail -1 $OUT/final.log
