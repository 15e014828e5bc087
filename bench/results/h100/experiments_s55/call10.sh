#!/usr/bin/env bash
# Session 55, call 10 (s55c, the final library: B's last N tile in bounds, grouped stream-K): the
# default suites (bf16, B N x K; committed as ../gemm_bf16.*), B K x N (../gemm_bf16_bkn.*), and the
# 'grid' shapes twice (order reversed), cuBLASLt beside automatic.
set -u
B=${B:-build-probe/s55c}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
timeout 150 $X --shapes $D/shapes.json --suites grid --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/grid_r1 > $OUT/grid_r1.log 2>&1; echo "grid r1 rc=$?"
timeout 200 $X --dtypes bf16 --backends cublaslt,sm90 --out $OUT/suites > $OUT/suites.log 2>&1; echo "suites rc=$?"
timeout 200 $X --dtypes bf16 --b-layout kn --backends cublaslt,sm90 --out $OUT/bkn > $OUT/bkn.log 2>&1; echo "bkn rc=$?"
timeout 150 $X --shapes $D/shapes.json --suites grid --dtypes bf16 --no-peak --backends sm90,cublaslt --out $OUT/grid_r2 > $OUT/grid_r2.log 2>&1; echo "grid r2 rc=$?"
python3 tools/diag/suite_summary.py $OUT/suites/gemm_bf16.json
python3 tools/diag/suite_summary.py $OUT/bkn/gemm_bf16_bkn.json
python3 $D/grid_table.py $OUT/grid_r1/gemm_bf16.json $OUT/grid_r2/gemm_bf16.json | tail -13
cd $OUT && tar czf runs.tgz grid_r* suites suites.log bkn bkn.log && rm -rf grid_r*
