#!/usr/bin/env bash
# Session 41, call 4: correctness of the final build: the GPU tests, sm90_gemm_check on every gemv
# instance, memcheck / racecheck on the gemv tests. Binaries travel xz-compressed (the carry limit).
set -u
B=${B:-build-probe/s41d}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 300 $B/tests/graphgemm_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/gpu_tests.log | head; grep -E "^\[  FAILED" $OUT/gpu_tests.log | head
timeout 120 $B/tools/sm90_gemm_check --filter=gemv > $OUT/check.txt 2>&1; echo "check rc=$?"
tail -3 $OUT/check.txt
F='Sm90.GemvKernels:Sm90.AutomaticTakesGemvForDecode'
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 $B/tests/graphgemm_gpu_tests --gtest_filter=$F > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
tail -2 $OUT/memcheck.log
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 1 $B/tests/graphgemm_gpu_tests --gtest_filter=$F > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"
tail -2 $OUT/racecheck.log
