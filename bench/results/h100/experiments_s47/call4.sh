#!/usr/bin/env bash
# Session 47, calls 4 and 6: the GPU tests of the step-only chain node update (call 4: s47t; call 6:
# s47t2, the setup node set on every update from the first one with other than the recorded weights); memcheck and racecheck
# on the chain node tests (ChainNodeUpdates: random updates of M, x, y, scales, alpha and weights,
# every replay bit for bit equal to an eager run; steps that keep the weights take the step-only
# path, the others rebuild the table and rewrite the setup node).
set -u
T=${T:?}
[ -x $T/tests/graphgemm_gpu_tests ] || tools/unpack_prebuilt.sh $T
t=$T/tests/graphgemm_gpu_tests
timeout 300 $t --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo "gpu tests rc=$?"; tail -3 $OUT/gpu_tests.log
F='Captures/ChainNodeUpdates.*:ChainErrors.*'
timeout 120 compute-sanitizer --tool memcheck $t --gtest_filter="$F" > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"; grep -E "PASSED|FAILED|ERROR SUMMARY" $OUT/memcheck.log | tail -3
timeout 120 compute-sanitizer --tool racecheck $t --gtest_filter="$F" > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"; grep -E "PASSED|FAILED|RACECHECK SUMMARY" $OUT/racecheck.log | tail -3
