#!/usr/bin/env bash
# Session 40, call 6: the final rule (kGemv16* in sm90_heuristic.cpp): every GPU
# test, memcheck / racecheck on the gemv tests.
set -u
B=${B:-build-probe/s40e}
gunzip -f $B/tests/graphgemm_gpu_tests.gz; chmod +x $B/tests/graphgemm_gpu_tests
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 240 $B/tests/graphgemm_gpu_tests > $OUT/gpu_tests.txt 2>&1; echo "gpu tests rc=$?"; tail -4 $OUT/gpu_tests.txt
grep -E "^\[  FAILED" $OUT/gpu_tests.txt | head
timeout 150 compute-sanitizer --tool memcheck $B/tests/graphgemm_gpu_tests --gtest_filter='*Gemv*:*gemv*' > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$?"; tail -2 $OUT/memcheck.txt
timeout 120 compute-sanitizer --tool racecheck $B/tests/graphgemm_gpu_tests --gtest_filter='Sm90.GemvKernels' > $OUT/racecheck.txt 2>&1; echo "racecheck rc=$?"; tail -2 $OUT/racecheck.txt
