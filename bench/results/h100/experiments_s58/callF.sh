#!/usr/bin/env bash
# Session 58, call F (s58d: the final rule of 5d11ec9 extended to cooperative 128-row first choices
# at M > 256 where its tiles give every SM one (kept: a4d01e7): 7 of 663 shapes move, no suite row). 1. Every GPU test
# (the rule's decision tests are the committed rule's; the extension's moves are not in them).
# memcheck / racecheck on the ping-pong 128x112 tiles (every ping-pong tile's captured
# replay, 1000 x 1544 x 520). 2. 'ppext': automatic beside each previous choice forced (the table's columns), two rounds.
set -u
B=${B:-build-probe/s58d}
tools/unpack_prebuilt.sh $B
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s58
S=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
P=sm90_bf16_bf16_
K="sm90=${P}128x128x64_s6_c1x1_bk:none,sm90=${P}128x136x64_s5_c1x1_bk:none,sm90=${P}128x176x64_s5_c1x1_bk:none,sm90=${P}128x176x64_s5_c1x1_bk:serial:2,sm90=${P}128x192x64_s4_c1x1_bk:none,sm90=${P}128x256x64_s4_c1x1_bk:none"
R=$(echo "$K" | tr ',' '\n' | tac | paste -sd,)
timeout 150 $X --shapes $D/shapes.json --suites ppext --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/ext_r1 > $OUT/ext_r1.log 2>&1; echo "ext r1 rc=$?"
timeout 150 $X --shapes $D/shapes.json --suites ppext --dtypes bf16 --no-peak --backends "$R,sm90,cublaslt" --out $OUT/ext_r2 > $OUT/ext_r2.log 2>&1; echo "ext r2 rc=$?"
python3 $S/tile_table.py $OUT/ext_r1/gemm_bf16.json $OUT/ext_r2/gemm_bf16.json | tee $OUT/table_ext.txt
(cd $OUT && tar czf ext.tgz ext_* && rm -rf ext_*)
timeout 150 $B/tests/graphgemm_gpu_tests > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|tests ran|SKIPPED \]" $OUT/gtest.log | head -20
F='Sm90Pingpong.CapturedReplayIsBitwiseEqual'
timeout 80 compute-sanitizer --tool memcheck $B/tests/graphgemm_gpu_tests --gtest_filter="$F" > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
tail -2 $OUT/memcheck.log
timeout 80 compute-sanitizer --tool racecheck $B/tests/graphgemm_gpu_tests --gtest_filter="$F" > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"
tail -2 $OUT/racecheck.log
