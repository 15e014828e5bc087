#!/usr/bin/env bash
# Session 44, call 11 (final build 7c4dfee, GPU tests' pack s44x): every GPU test.
set -u
T=${T:-build-probe/s44x}
[ -x $T/tests/graphgemm_gpu_tests ] || tools/unpack_prebuilt.sh $T
timeout 300 $T/tests/graphgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo "gpu tests rc=$?"; tail -3 $OUT/gpu_tests.log
