#!/usr/bin/env bash
# Session 41, call 8: the GPU tests on the final build (HEAD after the several-waves gemv rule).
set -u
B=${B:-build-probe/s41g}
f=$B/tests/graphgemm_gpu_tests
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 300 $f > $OUT/gpu_tests.log 2>&1; echo "gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED) " $OUT/gpu_tests.log; grep -E "^\[  FAILED" $OUT/gpu_tests.log | head
