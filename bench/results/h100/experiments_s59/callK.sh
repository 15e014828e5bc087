#!/usr/bin/env bash
# Session 59, call K (s59c = the final library, 81c4453): 'sus3' sustained turns (400 ms) of
# automatic beside the previous choices forced; the automatic-choice and ping-pong GPU tests.
set -u
B=${B:-build-probe/s59c}
tools/unpack_prebuilt.sh $B
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s59
S=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
P=sm90_bf16_bf16_
Q="sm90=${P}128x256x64_s4_c1x1_bk:none,sm90=${P}128x128x64_s6_c1x1_bk:none"
timeout 100 $X --shapes $D/shapes.json --suites sus3 --dtypes bf16 --no-peak --sustain-ms 400 --backends "cublaslt,sm90,$Q" --out $OUT/sus3 > $OUT/sus3.log 2>&1; echo "sus3 rc=$?"
python3 $S/tile_table.py $OUT/sus3/gemm_bf16.json $OUT/sus3/gemm_bf16.json | tee $OUT/table_sus3.txt
(cd $OUT && tar czf sus3.tgz sus3 sus3.log && rm -rf sus3 sus3.log)
timeout 100 $B/tests/graphgemm_gpu_tests --gtest_filter='Sm90.Automatic*:Sm90Pingpong.*' > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|SKIPPED \]" $OUT/gtest.log | head -10
