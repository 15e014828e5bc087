#!/usr/bin/env bash
# Session 57, call 3 (NOT RUN in session 57: too little device time was left to start a machine). s57h: the final library (s57g with kStreamKWaveMaxFill 0.8 and the one-wave
# splits kept out of cluster-sum requests), shared build packed with
#   PACK_FILES="tests/graphgemm_gpu_tests bench/graphgemm_bench" tools/pack_prebuilt.sh build-probe/s57h build-shared
# The split tests and the automatic-choice tests; session 55's 'grid' (132 shapes) twice with the order
# reversed, cuBLASLt beside automatic (session 55's call 10 on its library: geomean 0.996); the default
# suites with B stored K x N (committed as ../gemm_bf16_bkn.*; no K x N decision moved this session).
set -u
B=${B:-build-probe/s57h}
tools/unpack_prebuilt.sh $B
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader
S=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
timeout 150 $B/tests/graphgemm_gpu_tests --gtest_filter='Sm90SplitK.*:Sm90.Automatic*' > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED" $OUT/gtest.log | tail -5
timeout 150 $X --shapes $S/shapes.json --suites grid --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/grid_r1 > $OUT/grid_r1.log 2>&1; echo "grid r1 rc=$?"
timeout 150 $X --shapes $S/shapes.json --suites grid --dtypes bf16 --no-peak --backends sm90,cublaslt --out $OUT/grid_r2 > $OUT/grid_r2.log 2>&1; echo "grid r2 rc=$?"
python3 $S/grid_table.py $OUT/grid_r1/gemm_bf16.json $OUT/grid_r2/gemm_bf16.json > $OUT/grid_table.txt; tail -13 $OUT/grid_table.txt
(cd $OUT && tar czf grid.tgz grid_r* && rm -rf grid_r*)
timeout 200 $X --dtypes bf16 --b-layout kn --backends cublaslt,sm90 --out $OUT/bkn > $OUT/bkn.log 2>&1; echo "bkn rc=$?"
python3 tools/diag/suite_summary.py $OUT/bkn/gemm_bf16_bkn.json
cd $OUT && tar czf bkn.tgz bkn bkn.log && rm -rf bkn bkn.log
