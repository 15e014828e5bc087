#!/usr/bin/env bash
# Session 43, call 6: the final build's suites with B stored K x N beside cuBLASLt, two rounds (the
# committed gemm_bf16_bkn.* is round 1), and the llm M = 256 rows with the tile automatic took
# before (128x128 alone) forced beside the pair tile it takes now; then bf16 with D in fp32 (B N x K).
set -u
B=${B:-build-probe/s43d}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
f=$B/bench/graphgemm_bench
for r in 1 2; do
  timeout 120 $f --suites llm,square,splitk --dtypes bf16 --b-layout kn --backends cublaslt,sm90 --out $OUT/kn_r$r > $OUT/kn_r$r.log 2>&1; echo "kn r$r rc=$?"
done
timeout 100 $f --suites llm --min-m 256 --max-m 256 --dtypes bf16 --b-layout kn --no-peak \
  --backends cublaslt,sm90,sm90=sm90_bf16_bf16_128x128x64_s6_c1x1_bn:none --out $OUT/kn_m256 > $OUT/kn_m256.log 2>&1; echo "m256 rc=$?"
timeout 120 $f --suites llm,square,splitk --dtypes bf16 --out-dtype fp32 --backends cublaslt,sm90 --out $OUT/fp32 > $OUT/fp32.log 2>&1; echo "fp32 rc=$?"
