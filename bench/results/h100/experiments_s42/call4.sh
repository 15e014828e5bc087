#!/usr/bin/env bash
# Session 42, call 4: forced split-K at llm M = 128 / 256 (m256_shapes.json) beside automatic and
# cuBLASLt, one bench run (the library at HEAD 386d23a's kernels); then the chain GPU tests with
# the new ChainHandOver test (NaN-poisoned workspace before every run).
set -u
B=${B:-build-probe/s42b}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
K1=sm90=sm90_bf16_bf16_128x128x64_s6_c1x1
K2=sm90=sm90_bf16_bf16_64x128x64_s8_c1x1
K3=sm90=sm90_bf16_bf16_64x64x64_s13_c1x1
BK="cublaslt,sm90,$K1:none,$K1:serial:2,$K1:parallel:2,$K1:parallel:3,$K1:parallel:4,$K2:serial:2,$K2:parallel:2,$K3:serial:2,$K3:parallel:2"
timeout 400 $B/bench/graphgemm_bench --shapes bench/results/h100/experiments_s42/m256_shapes.json --suites m256 \
  --dtypes bf16 --no-peak --backends "$BK" --out $OUT/m256 > $OUT/m256.log 2>&1; echo "bench rc=$?"
python3 bench/results/h100/experiments_s42/split_table.py $OUT/m256/gemm_bf16.json
if [ -x $B/tests/graphgemm_gpu_tests ]; then
  timeout 150 $B/tests/graphgemm_gpu_tests --gtest_filter='*Chain*' > $OUT/chain_tests.txt 2>&1; echo "chain tests rc=$?"
  grep -E "FAILED|PASSED|HandOver" $OUT/chain_tests.txt | head -8
fi
