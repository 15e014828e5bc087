#!/usr/bin/env bash
# Session 43, call 5: correctness of the build with the K x N swap-AB kernels, the K x N pair tile
# (128x128 c2x1 `_bn`) and the K x N swap tie rule: every GPU test; sm90_gemm_check on every `_bn`
# instance (swap-AB, pair tile and the rest); compute-sanitizer memcheck / racecheck on the swap-AB
# tests (both layouts).
set -u
B=${B:-build-probe/s43c}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 330 $B/tests/graphgemm_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED) " $OUT/gpu_tests.log; grep -E "^\[  FAILED" $OUT/gpu_tests.log | head
timeout 150 $B/tools/sm90_gemm_check --filter=_bn > $OUT/check_bn.txt 2>&1; echo "check rc=$?"
tail -3 $OUT/check_bn.txt
timeout 100 compute-sanitizer --tool memcheck $B/tests/graphgemm_gpu_tests --gtest_filter='Sm90.SwapABKernels:Sm90.EveryKernelInstance' > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$?"
tail -2 $OUT/memcheck.txt
timeout 120 compute-sanitizer --tool racecheck $B/tests/graphgemm_gpu_tests --gtest_filter='Sm90.SwapABKernels' > $OUT/racecheck.txt 2>&1; echo "racecheck rc=$?"
tail -2 $OUT/racecheck.txt
