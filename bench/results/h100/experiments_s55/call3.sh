#!/usr/bin/env bash
# Session 55, call 3 (s54b, session 54's final bench; no library change): shapes.json 'grid' (12
# weights of other models x 11 M, B N x K, bf16), automatic beside cuBLASLt, two rounds with the
# order reversed: where ours trails most.
set -u
B=${B:-build-probe/s54b}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
timeout 250 $X --shapes $D/shapes.json --suites grid --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/grid_r1 > $OUT/grid_r1.log 2>&1; echo "r1 rc=$?"
timeout 250 $X --shapes $D/shapes.json --suites grid --dtypes bf16 --no-peak --backends sm90,cublaslt --out $OUT/grid_r2 > $OUT/grid_r2.log 2>&1; echo "r2 rc=$?"
python3 $D/grid_table.py $OUT/grid_r1/gemm_bf16.json $OUT/grid_r2/gemm_bf16.json
cd $OUT && tar czf call3.tgz grid_r* && rm -rf grid_r*
