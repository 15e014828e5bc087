#!/usr/bin/env bash
# Session 55, call 8 (s55u: stream-K ranges grouped over tile columns where every tile is shared;
# GPU tests): every GPU test, then memcheck on the stream-K tests and racecheck on the stream-K
# shapes test.
set -u
T=${T:-build-probe/s55u}
tools/unpack_prebuilt.sh $T
nvidia-smi --query-gpu=name --format=csv,noheader
G=$T/tests/graphgemm_gpu_tests
timeout 330 $G > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|tests ran" $OUT/gtest.log | tail -8
timeout 130 compute-sanitizer --tool memcheck $G --gtest_filter='Sm90SplitK.StreamK*' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
tail -2 $OUT/memcheck.log
timeout 130 compute-sanitizer --tool racecheck $G --gtest_filter='Sm90SplitK.StreamKShapes*' > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"
tail -2 $OUT/racecheck.log
