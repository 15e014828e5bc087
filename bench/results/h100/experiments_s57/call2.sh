#!/usr/bin/env bash
# Session 57, call 2. s57g: s57f + the one-wave splits (serial 2 / stream-K, kSerialWave* /
# kStreamKWave*) and the wave tile not in place of a 64-row first choice, shared build packed with
#   PACK_FILES="tests/graphgemm_gpu_tests bench/graphgemm_bench" tools/pack_prebuilt.sh build-probe/s57g build-shared
# Every GPU test; the shapes whose automatic choice moved from s57f (shapes.json 'moved_*'),
# automatic beside s57f's choice forced and cuBLASLt, two rounds with the order reversed.
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
cd $OUT && tar czf call2.tgz moved_* && rm -rf moved_*
