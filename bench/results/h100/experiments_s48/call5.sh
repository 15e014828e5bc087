#!/usr/bin/env bash
# Session 48, call 5: the GPU tests with the chain's weights loaded ahead of the rows (two producer
# threads); memcheck and racecheck on chain tests covering both producers, every chain tile and
# graph-node updates (ChainHandOver: NaN-poisoned workspace, 16 runs back to back a tile and M).
set -u
T=${T:?}
[ -x $T/tests/graphgemm_gpu_tests ] || tools/unpack_prebuilt.sh $T
t=$T/tests/graphgemm_gpu_tests
timeout 300 $t --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo "gpu tests rc=$?"; tail -3 $OUT/gpu_tests.log
F='Captures/ChainNodeUpdates.*:ChainErrors.*:Chains/ChainEager.*bf16_512_512_512_512_512*:Chains/ChainEager.*bf16_200_264_136_72*'
timeout 150 compute-sanitizer --tool memcheck $t --gtest_filter="$F" > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"; grep -E "PASSED|FAILED|ERROR SUMMARY" $OUT/memcheck.log | tail -3
timeout 150 compute-sanitizer --tool racecheck $t --gtest_filter="$F" > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"; grep -E "PASSED|FAILED|RACECHECK SUMMARY" $OUT/racecheck.log | tail -3
