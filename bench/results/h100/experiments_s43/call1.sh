#!/usr/bin/env bash
# Session 43, call 1: the suites as users with fp16 inputs and users with B stored K x N run them,
# beside cuBLASLt in one run each (never committed before: every suite run so far was bf16, B N x K).
set -u
B=${B:-build-probe/s43a}
f=$B/bench/graphgemm_bench
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 280 $f --suites llm,square,splitk --dtypes fp16 --backends cublaslt,sm90 --out $OUT/fp16 > $OUT/fp16.log 2>&1; echo "fp16 rc=$?"
tail -2 $OUT/fp16.log
timeout 280 $f --suites llm,square,splitk --dtypes bf16 --b-layout kn --backends cublaslt,sm90 --out $OUT/kn > $OUT/kn.log 2>&1; echo "kn rc=$?"
tail -2 $OUT/kn.log
