#!/usr/bin/env bash
# Session 53, call 3: the committed library (session 52's kernels + a static_assert and trace-only
# events): the split-K / stream-K GPU tests.
set -u
B=${B:-build-probe/s53g}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 500 $B/tests/graphgemm_gpu_tests --gtest_filter='Sm90SplitK.*' 2>&1 | tail -5
