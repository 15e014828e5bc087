#!/usr/bin/env bash
# Session 42, call 6: compute-sanitizer on the session's new GPU tests (final build): memcheck on
# ChainHandOver and Sm90.EveryKernelFitsItsCtasPerSm, racecheck on ChainHandOver.
set -u
B=${B:-build-probe/s42t}
tools/unpack_prebuilt.sh $B
T=$B/tests/graphgemm_gpu_tests
timeout 250 compute-sanitizer --tool memcheck --error-exitcode 9 $T --gtest_filter='ChainHandOver.*:Sm90.EveryKernelFitsItsCtasPerSm' > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$?"
tail -4 $OUT/memcheck.txt
timeout 300 compute-sanitizer --tool racecheck --error-exitcode 9 $T --gtest_filter='ChainHandOver.*' > $OUT/racecheck.txt 2>&1; echo "racecheck rc=$?"
tail -4 $OUT/racecheck.txt
