#!/usr/bin/env bash
# Session 45, call 8: the final build's GPU tests (s45t) under memcheck on the tests that run the
# 128x96 tile, with a longer limit than call 6 (which stopped inside PartialChunkTiles); then the
# committed B N x K suite plot redrawn (bench/plot.py on ../gemm_bf16.json), if K is set the sm90
# kernel check over the 128x96 instances (s45k).
set -u
T=${T:-}
K=${K:-}
if [ -n "$T" ]; then
[ -x $T/tests/graphgemm_gpu_tests ] || tools/unpack_prebuilt.sh $T
t=$T/tests/graphgemm_gpu_tests
F='Sm90.AutomaticTakesNarrowTileWhereItFillsTheWave:Sm90SplitK.EveryTileConfiguration:Sm90.PartialChunkTilesEveryEpilogueAndOutputType'
timeout 500 compute-sanitizer --tool memcheck $t --gtest_filter="$F" > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"; grep -E "OK \]|FAILED|ERROR SUMMARY" $OUT/memcheck.log | tail -5
fi
if [ -n "$K" ]; then
[ -x $K/tools/sm90_gemm_check ] || tools/unpack_prebuilt.sh $K
timeout 300 $K/tools/sm90_gemm_check --filter=128x96 > $OUT/check.log 2>&1; echo "check rc=$?"; tail -4 $OUT/check.log
fi
mkdir -p $OUT/plot && cp bench/results/h100/gemm_bf16.json $OUT/plot/ && python3 bench/plot.py $OUT/plot > /dev/null 2>&1; echo "plot rc=$?"; rm -f $OUT/plot/gemm_bf16.json
