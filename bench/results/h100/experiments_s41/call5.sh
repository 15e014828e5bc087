#!/usr/bin/env bash
# Session 41, call 5: the final build (the 64x64 fill rule, gemv16_w16_u2): the final suite run
# (committed bench/results/h100/gemm_bf16.*).
set -u
B=${B:-build-probe/s41e}
f=$B/bench/graphgemm_bench
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 450 $f --suites llm,square,splitk --dtypes bf16 --backends cublaslt,sm90 --out $OUT/final > $OUT/final.log 2>&1; echo "final rc=$?"
tail -2 $OUT/final.log
