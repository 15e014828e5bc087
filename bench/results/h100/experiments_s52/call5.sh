#!/usr/bin/env bash
# Session 52, call 5: every GPU test on the final build (the stream-K test gains a shape with whole
# waves of every tile before the shared last one), then memcheck and racecheck on the stream-K tests.
set -u
B=${B:-build-probe/s52d}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
G=$B/tests/graphgemm_gpu_tests
timeout 330 $G > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|tests ran" $OUT/gtest.log | tail -8
timeout 120 compute-sanitizer --tool memcheck $G --gtest_filter='Sm90SplitK.StreamK*' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
tail -2 $OUT/memcheck.log
timeout 120 compute-sanitizer --tool racecheck $G --gtest_filter='Sm90SplitK.StreamKShapes*' > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"
tail -2 $OUT/racecheck.log
