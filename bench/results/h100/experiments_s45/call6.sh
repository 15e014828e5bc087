#!/usr/bin/env bash
# Session 45, call 6: the 128x96 tile's build (s45t, GPU tests): every GPU test; memcheck and racecheck
# on the tests that run it (EveryKernelInstance, PartialChunkTiles, the split-K tile sweep, the
# automatic choice).
set -u
T=${T:?}
[ -x $T/tests/graphgemm_gpu_tests ] || tools/unpack_prebuilt.sh $T
t=$T/tests/graphgemm_gpu_tests
timeout 300 $t --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo "gpu tests rc=$?"; tail -3 $OUT/gpu_tests.log
F='Sm90.EveryKernelInstance:Sm90.PartialChunkTilesEveryEpilogueAndOutputType:Sm90.AutomaticTakesNarrowTileWhereItFillsTheWave:Sm90SplitK.EveryTileConfiguration'
timeout 150 compute-sanitizer --tool memcheck $t --gtest_filter="$F" > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -2 $OUT/memcheck.log
timeout 150 compute-sanitizer --tool racecheck $t --gtest_filter='Sm90.AutomaticTakesNarrowTileWhereItFillsTheWave:Sm90.EveryKernelInstance' > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"; tail -2 $OUT/racecheck.log
