#!/usr/bin/env bash
# Session 55, calls 5-8: one bench (B=build-probe/s55b: B's last N tile loaded in bounds; or
# build-probe/s54b: session 54's, for the A/B in alternate calls): the 'grid' shapes, the default
# suites (bf16, B N x K; committed as ../gemm_bf16.* from the s55b run), the grid again; cuBLASLt
# beside automatic in each.
set -u
B=${B:?}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
timeout 150 $X --shapes $D/shapes.json --suites grid --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/grid_r1 > $OUT/grid_r1.log 2>&1; echo "grid r1 rc=$?"
timeout 300 $X --dtypes bf16 --backends cublaslt,sm90 --out $OUT/suites > $OUT/suites.log 2>&1; echo "suites rc=$?"
timeout 150 $X --shapes $D/shapes.json --suites grid --dtypes bf16 --no-peak --backends sm90,cublaslt --out $OUT/grid_r2 > $OUT/grid_r2.log 2>&1; echo "grid r2 rc=$?"
python3 tools/diag/suite_summary.py $OUT/suites/gemm_bf16.json
python3 $D/grid_table.py $OUT/grid_r1/gemm_bf16.json $OUT/grid_r2/gemm_bf16.json | tail -13
cd $OUT && tar czf runs.tgz grid_r* suites suites.log && rm -rf grid_r*
