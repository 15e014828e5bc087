#!/usr/bin/env bash
# Session 42, call 13 (experiment build, stages_2kb.patch): cooperative tiles with stages of two
# k-blocks (64x64x128 s6, 64x128x128 s4, 128x128x128 s3; by name only) against their one-k-block
# twins, automatic and cuBLASLt at llm M = 128 / 256 (m256_shapes.json), one bench run; first
# sm90_gemm_check on the three new instances.
set -u
B=${B:-build-probe/s42x}
tools/unpack_prebuilt.sh $B
timeout 200 $B/tools/sm90_gemm_check --quick --filter=x128_s > $OUT/check.txt 2>&1; echo "check rc=$?"; tail -6 $OUT/check.txt
K=sm90=sm90_bf16_bf16_
BK="cublaslt,sm90,${K}64x64x64_s13_c1x1,${K}64x64x128_s6_c1x1,${K}64x128x64_s8_c1x1,${K}64x128x128_s4_c1x1,${K}128x128x64_s6_c1x1,${K}128x128x128_s3_c1x1"
timeout 360 $B/bench/graphgemm_bench --shapes bench/results/h100/experiments_s42/m256_shapes.json --suites m256 \
  --dtypes bf16 --no-peak --backends "$BK" --out $OUT/stages > $OUT/stages.log 2>&1; echo "bench rc=$?"
python3 bench/results/h100/experiments_s42/split_table.py $OUT/stages/gemm_bf16.json
