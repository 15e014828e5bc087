#!/usr/bin/env bash
# Session 42, call 5: all GPU tests on the final build (KernelInfo::ctas_per_sm and the heuristic's
# gemv waves sized by it: decisions identical to HEAD's over 3420 shapes x both B layouts x bf16 /
# fp32 out x 132 / 114 SMs; gemv SASS identical), with the new Sm90.EveryKernelFitsItsCtasPerSm
# (the occupancy API on every compiled instance) and ChainHandOver.
set -u
B=${B:-build-probe/s42t}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 560 $B/tests/graphgemm_gpu_tests > $OUT/gpu_tests.txt 2>&1; echo "gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED|  SKIPPED) |FAILED  \]|tests ran" $OUT/gpu_tests.txt | head -20
grep -A3 "EveryKernelFitsItsCtasPerSm" $OUT/gpu_tests.txt | head -6
