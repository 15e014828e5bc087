#!/usr/bin/env bash
# Session 44, call 6 (the final build, GPU tests' pack s44w: the operand-offset helper, SASS
# identical; the tests' automatic_choice helper): every GPU test.
set -u
T=${T:-build-probe/s44w}
[ -x $T/tests/graphgemm_gpu_tests ] || tools/unpack_prebuilt.sh $T
timeout 300 $T/tests/graphgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo "gpu tests rc=$?"; tail -4 $OUT/gpu_tests.log
