#!/usr/bin/env bash
# Session 56, call 1 (s56t: the wave tile 128x144 s5 (B N x K) in the library, ranked by the cost
# model, unsplit only; GPU tests): every GPU test; memcheck and racecheck on the last-N-tile test
# (its new 128x144 cases, unsplit and serial 2).
set -u
T=${T:-build-probe/s56t}
tools/unpack_prebuilt.sh $T
nvidia-smi --query-gpu=name --format=csv,noheader
G=$T/tests/graphgemm_gpu_tests
timeout 200 $G > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|tests ran" $OUT/gtest.log | tail -8
timeout 150 compute-sanitizer --tool memcheck $G --gtest_filter='Sm90.LastNTileMatchesAFullTileBitwise' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
tail -2 $OUT/memcheck.log
timeout 150 compute-sanitizer --tool racecheck $G --gtest_filter='Sm90.LastNTileMatchesAFullTileBitwise' > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"
tail -2 $OUT/racecheck.log
