#!/usr/bin/env bash
# Session 57, call 2 (each part's results packed as soon as it ends, in case the call runs out of time). s57g: s57f + the one-wave splits (serial 2 / stream-K, kSerialWave* /
# kStreamKWave*) and the wave tile not in place of a 64-row first choice, shared build packed with
#   PACK_FILES="tests/graphgemm_gpu_tests bench/graphgemm_bench" tools/pack_prebuilt.sh build-probe/s57g build-shared
# Every GPU test; the shapes whose automatic choice moved from s57f (shapes.json 'moved_*'),
# automatic beside s57f's choice forced and cuBLASLt, two rounds with the order reversed; 'm256' (the
# M = 256 llm rows that trail cuBLASLt): automatic beside serial 2, stream-K, parallel 2, two rounds;
# the default suites (bf16, B N x K), cuBLASLt beside automatic (no suite decision moved this session).
set -u
B=${B:-build-probe/s57g}
tools/unpack_prebuilt.sh $B
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s57
G=$B/tests/graphgemm_gpu_tests
X=$B/bench/graphgemm_bench
timeout 240 $G > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|tests ran" $OUT/gtest.log | tail -8
P=sm90_bf16_bf16_
for g in "moved_128x128 ${P}128x128x64_s6_c1x1_bk" "moved_128x256 ${P}128x256x64_s4_c1x1_bk" "moved_128x144 ${P}128x144x64_s5_c1x1_bk"; do
  set -- $g
  timeout 100 $X --shapes $D/shapes.json --suites $1 --dtypes bf16 --no-peak --backends "cublaslt,sm90,sm90=$2:none" --out $OUT/${1}_r1 > $OUT/${1}_r1.log 2>&1; echo "$1 r1 rc=$?"
  timeout 100 $X --shapes $D/shapes.json --suites $1 --dtypes bf16 --no-peak --backends "sm90=$2:none,sm90,cublaslt" --out $OUT/${1}_r2 > $OUT/${1}_r2.log 2>&1; echo "$1 r2 rc=$?"
done
python3 bench/results/h100/experiments_s56/ab_table.py $OUT/moved_*_r1/gemm_bf16.json -- $OUT/moved_*_r2/gemm_bf16.json | tee $OUT/table_moved.txt
(cd $OUT && tar czf moved.tgz moved_* && rm -rf moved_*)
K="sm90:serial:2,sm90:streamk,sm90:parallel:2"
R=$(echo "$K" | tr ',' '\n' | tac | paste -sd,)
timeout 100 $X --shapes $D/shapes.json --suites m256 --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/m256_r1 > $OUT/m256_r1.log 2>&1; echo "m256 r1 rc=$?"
timeout 100 $X --shapes $D/shapes.json --suites m256 --dtypes bf16 --no-peak --backends "$R,sm90,cublaslt" --out $OUT/m256_r2 > $OUT/m256_r2.log 2>&1; echo "m256 r2 rc=$?"
python3 bench/results/h100/experiments_s55/tile_table.py $OUT/m256_r1/gemm_bf16.json $OUT/m256_r2/gemm_bf16.json | tee $OUT/table_m256.txt
(cd $OUT && tar czf m256.tgz m256_* && rm -rf m256_*)
timeout 200 $X --dtypes bf16 --backends cublaslt,sm90 --out $OUT/suites > $OUT/suites.log 2>&1; echo "suites rc=$?"
python3 tools/diag/suite_summary.py $OUT/suites/gemm_bf16.json
cd $OUT && tar czf suites.tgz suites suites.log && rm -rf suites suites.log
