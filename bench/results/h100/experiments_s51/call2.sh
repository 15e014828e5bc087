#!/usr/bin/env bash
# Session 51, call 2: stream-K over the last partial wave only (whole-tile waves, then the tail's
# k-blocks shared by every CTA; experiment build: StreamKPartition's dp_tiles = full waves x CTAs) on the 128x256 c1x1 tile, beside the same tile unsplit, automatic and cuBLASLt, in one
# run (turns), two rounds with the order reversed.
set -u
B=${B:-build-probe/s51c}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
T=sm90=sm90_bf16_bf16_128x256x64_s4_c1x1_bk
S=bench/results/h100/experiments_s51/shapes.json
timeout 250 $B/bench/graphgemm_bench --shapes $S --suites sq,llm4k,llm8k --dtypes bf16 --no-peak \
  --backends "cublaslt,sm90,$T:none,$T:streamk" --out $OUT/r1 > $OUT/r1.log 2>&1; echo "r1 rc=$?"
timeout 250 $B/bench/graphgemm_bench --shapes $S --suites sq,llm4k,llm8k --dtypes bf16 --no-peak \
  --backends "$T:streamk,$T:none,sm90,cublaslt" --out $OUT/r2 > $OUT/r2.log 2>&1; echo "r2 rc=$?"
for r in r1 r2; do python3 bench/results/h100/experiments_s51/table.py $OUT/$r/gemm_bf16.json; done
