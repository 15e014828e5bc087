#!/usr/bin/env bash
# Session 54, call 2: the final library's GPU tests (StreamKPartition::waits_end in the owner's
# loop; the stream-K charge of call 1 removed), then memcheck on the stream-K tests and racecheck
# on the stream-K shapes test (every cooperative tile incl. the pair tiles in clusters).
set -u
B=${B:-build-probe/s54h}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
G=$B/tests/graphgemm_gpu_tests
timeout 300 $G > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|tests ran" $OUT/gtest.log | tail -8
timeout 140 compute-sanitizer --tool memcheck $G --gtest_filter='Sm90SplitK.StreamK*' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
tail -2 $OUT/memcheck.log
timeout 140 compute-sanitizer --tool racecheck $G --gtest_filter='Sm90SplitK.StreamKShapes*' > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"
tail -2 $OUT/racecheck.log
