#!/usr/bin/env bash
# Session 52, call 4: A/B of the automatic stream-K rule on the 13 suite rows it moves (moved.json):
# automatic (now stream-K on the 128x256 c2x1 tile) against the same tile forced unsplit (the
# previous automatic choice) and cuBLASLt, in one run (turns); two rounds with the order reversed
# for B N x K, one round for B K x N.
set -u
B=${B:-build-probe/s52c}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s52
S=$D/moved.json
K=sm90=sm90_bf16_bf16_128x256x64_s4_c2x1
timeout 200 $B/bench/graphgemm_bench --shapes $S --suites moved --dtypes bf16 --no-peak \
  --backends "cublaslt,sm90,${K}_bk:none" --out $OUT/r1 > $OUT/r1.log 2>&1; echo "r1 rc=$?"
timeout 200 $B/bench/graphgemm_bench --shapes $S --suites moved --dtypes bf16 --no-peak \
  --backends "${K}_bk:none,sm90,cublaslt" --out $OUT/r2 > $OUT/r2.log 2>&1; echo "r2 rc=$?"
timeout 170 $B/bench/graphgemm_bench --shapes $S --suites moved --dtypes bf16 --no-peak --b-layout kn \
  --backends "cublaslt,sm90,${K}_bn:none" --out $OUT/r3 > $OUT/r3.log 2>&1; echo "r3 rc=$?"
for r in r1 r2 r3; do python3 $D/ab_table.py $OUT/$r/gemm_bf16*.json; done
