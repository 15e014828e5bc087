#!/usr/bin/env bash
# Session 44, call 5 (HEAD's build, the GPU tests' pack s44v): racecheck on the swap-AB tests, which
# run the wide tile (memcheck ran in call 3 on the same kernels).
set -u
T=${T:-build-probe/s44v}
[ -x $T/tests/graphgemm_gpu_tests ] || tools/unpack_prebuilt.sh $T
timeout 500 compute-sanitizer --tool racecheck $T/tests/graphgemm_gpu_tests --gtest_filter='Sm90.SwapABKernels' > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"; tail -3 $OUT/racecheck.log
