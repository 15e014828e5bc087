#!/usr/bin/env bash
# Session 54, call 10 (and 11 with B=build-probe/s52c, the committed library): the ragged suite
# (M 37-1000 on five llm (N, K); last run in session 32), automatic beside cuBLASLt, two rounds.
set -u
B=${B:-build-probe/s54b}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
X=$B/bench/graphgemm_bench
for r in r1 r2; do
  timeout 120 $X --suites ragged --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/$r > $OUT/$r.log 2>&1; echo "$r rc=$?"
  python3 bench/results/h100/experiments_s52/table.py $OUT/$r/gemm_bf16.json
done
cd $OUT && tar czf ragged.tgz r1 r2 r1.log r2.log && rm -rf r1 r2 r1.log r2.log
