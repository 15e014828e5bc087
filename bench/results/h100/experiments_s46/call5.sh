#!/usr/bin/env bash
# Session 46, call 5: the final build's GPU tests (s46t: the pair rule, HEAD's kernels); memcheck and
# racecheck on the new test (Sm90.AutomaticTakesPairTilesAtTwoMTiles: the pair tile in one and in
# several waves of clusters, chosen automatically); the committed suite plot redrawn (call 3's run).
set -u
T=${T:?}
[ -x $T/tests/graphgemm_gpu_tests ] || tools/unpack_prebuilt.sh $T
t=$T/tests/graphgemm_gpu_tests
timeout 300 $t --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo "gpu tests rc=$?"; tail -3 $OUT/gpu_tests.log
F='Sm90.AutomaticTakesPairTilesAtTwoMTiles'
timeout 150 compute-sanitizer --tool memcheck $t --gtest_filter="$F" > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"; grep -E "FAILED|ERROR SUMMARY" $OUT/memcheck.log | tail -2
timeout 150 compute-sanitizer --tool racecheck $t --gtest_filter="$F" > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"; grep -E "FAILED|RACECHECK SUMMARY" $OUT/racecheck.log | tail -2
mkdir -p $OUT/plot && cp bench/results/h100/gemm_bf16.json $OUT/plot/ && python3 bench/plot.py $OUT/plot > /dev/null 2>&1; echo "plot rc=$?"; rm -f $OUT/plot/gemm_bf16.json
