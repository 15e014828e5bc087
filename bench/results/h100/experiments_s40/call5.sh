#!/usr/bin/env bash
# Session 40, call 5: the final rule (16-token gemv at M = 9..16 where swap-AB leaves SMs idle, one
# wave, 2048 <= K <= 6144): the final suite run (committed bench/results/h100/gemm_bf16.*).
set -u
B=${B:-build-probe/s40d}
gunzip -f $B/bench/graphgemm_bench.gz; chmod +x $B/bench/graphgemm_bench
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 400 $B/bench/graphgemm_bench --suites llm,square,splitk --dtypes bf16 --backends cublaslt,sm90 --out $OUT/final > $OUT/final.log 2>&1; echo "final rc=$?"
tail -2 $OUT/final.log
