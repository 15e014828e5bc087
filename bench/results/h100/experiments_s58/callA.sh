#!/usr/bin/env bash
# Session 58, call A. s58a: the final library of session 57 (8a8d76d), shared build packed with
#   PACK_FILES="tests/graphgemm_gpu_tests bench/graphgemm_bench" tools/pack_prebuilt.sh build-probe/s58a build-shared
# Parts, each packed as it ends:
#  1. session 57's call 3, never run: the split and automatic-choice GPU tests; the 'grid' twice
#     beside cuBLASLt (order reversed); the default suites with B stored K x N.
#  2. ncu, cuBLASLt and ours on the M = 256 rows that trail cuBLASLt and on 1024^3: kernel names
#     (cuBLASLt's carry tile and cluster), time, DRAM and L2 bytes, instructions.
#  3. the splitk rows below 0.95x (shapes.json 'splitk_weak'): automatic beside forced splits, two rounds.
set -u
B=${B:-build-probe/s58a}
tools/unpack_prebuilt.sh $B
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s58
S=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
P=sm90_bf16_bf16_
timeout 150 $B/tests/graphgemm_gpu_tests --gtest_filter='Sm90SplitK.*:Sm90.Automatic*' > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED" $OUT/gtest.log | tail -5
# 2. ncu
export BENCH=$X NAME_WIDTH=110 EXTRA_METRICS=lts__t_bytes.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum
timeout 240 tools/diag/ncu_shapes.sh $OUT/ncu "256x2112x7168 cublaslt" "256x2112x7168 sm90" "256x7168x2048 cublaslt" "256x7168x2048 sm90" \
  "256x4096x4096 cublaslt" "256x4096x4096 sm90" "1024x1024x1024 cublaslt" "1024x1024x1024 sm90" > $OUT/ncu.txt 2>&1; echo "ncu rc=$?"
cat $OUT/ncu.txt | cut -c1-400
(cd $OUT && tar czf ncu.tgz ncu && rm -rf ncu)
# 3. splitk rows
K="sm90=${P}64x64x64_s13_c1x1:parallel,sm90=${P}64x64x64_s13_c1x1:serial,sm90=${P}64x128x64_s8_c1x1:parallel,sm90=${P}64x128x64_s8_c1x1:serial,sm90=${P}128x128x64_s6_c1x1:parallel,sm90:parallel:auto:c8,sm90:parallel:auto:c4"
R=$(echo "$K" | tr ',' '\n' | tac | paste -sd,)
timeout 100 $X --shapes $D/shapes.json --suites splitk_weak --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/sk_r1 > $OUT/sk_r1.log 2>&1; echo "sk r1 rc=$?"
timeout 100 $X --shapes $D/shapes.json --suites splitk_weak --dtypes bf16 --no-peak --backends "$R,sm90,cublaslt" --out $OUT/sk_r2 > $OUT/sk_r2.log 2>&1; echo "sk r2 rc=$?"
python3 $S/tile_table.py $OUT/sk_r1/gemm_bf16.json $OUT/sk_r2/gemm_bf16.json | tee $OUT/table_sk.txt | cut -c1-300
(cd $OUT && tar czf sk.tgz sk_* && rm -rf sk_*)
# 1. grid and B K x N
timeout 150 $X --shapes $S/shapes.json --suites grid --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/grid_r1 > $OUT/grid_r1.log 2>&1; echo "grid r1 rc=$?"
timeout 150 $X --shapes $S/shapes.json --suites grid --dtypes bf16 --no-peak --backends sm90,cublaslt --out $OUT/grid_r2 > $OUT/grid_r2.log 2>&1; echo "grid r2 rc=$?"
python3 $S/grid_table.py $OUT/grid_r1/gemm_bf16.json $OUT/grid_r2/gemm_bf16.json > $OUT/grid_table.txt; tail -13 $OUT/grid_table.txt
(cd $OUT && tar czf grid.tgz grid_r* && rm -rf grid_r*)
timeout 200 $X --dtypes bf16 --b-layout kn --backends cublaslt,sm90 --out $OUT/bkn > $OUT/bkn.log 2>&1; echo "bkn rc=$?"
python3 tools/diag/suite_summary.py $OUT/bkn/gemm_bf16_bkn.json
cd $OUT && tar czf bkn.tgz bkn bkn.log && rm -rf bkn bkn.log
