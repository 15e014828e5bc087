#!/usr/bin/env bash
# Session 52, call 2: correctness of stream-K after the fix-up through shared memory, the
# partial-wave partition and clusters (a cluster's CTAs share one range): the split-K GPU tests
# (the stream-K tests force every cooperative tile with and without clusters), then memcheck and
# racecheck on the stream-K tests.
set -u
B=${B:-build-probe/s52t}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
G=$B/tests/graphgemm_gpu_tests
timeout 200 $G --gtest_filter='Sm90SplitK.*' > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |^\[       OK|FAILED" $OUT/gtest.log | tail -25
timeout 170 compute-sanitizer --tool memcheck $G --gtest_filter='Sm90SplitK.StreamKShapes*' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
tail -3 $OUT/memcheck.log
timeout 200 compute-sanitizer --tool racecheck $G --gtest_filter='Sm90SplitK.StreamKShapes*' > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"
tail -3 $OUT/racecheck.log
