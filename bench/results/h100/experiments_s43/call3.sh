#!/usr/bin/env bash
# Session 43, call 3: swap-AB with B stored K x N (the `_sw_bn` kernels: the weights an MN-major
# wgmma A operand). Every GPU test, then the suites with B K x N beside cuBLASLt (automatic now
# takes swap-AB at M <= 32 with B K x N, as with N x K) and, for the decode rows, the tile
# automatic took before (64x128, B K x N) forced beside it.
set -u
B=${B:-build-probe/s43b}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 330 $B/tests/graphgemm_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED) " $OUT/gpu_tests.log; grep -E "^\[  FAILED" $OUT/gpu_tests.log | head
f=$B/bench/graphgemm_bench
timeout 120 $f --suites llm,square,splitk --dtypes bf16 --b-layout kn --backends cublaslt,sm90 --out $OUT/kn > $OUT/kn.log 2>&1; echo "kn rc=$?"
timeout 100 $f --suites llm,splitk --max-m 32 --dtypes bf16 --b-layout kn --no-peak \
  --backends cublaslt,sm90,sm90=sm90_bf16_bf16_64x128x64_s8_c1x1_bn --out $OUT/kn_decode > $OUT/kn_decode.log 2>&1; echo "kn decode rc=$?"
