#!/usr/bin/env bash
# Session 39, call 11: GEMM graph nodes on the gemv kernels (one kernel parameter: recorded, updated
# with random M / pointers / scalars, bitwise against eager), then every GPU test; memcheck on the
# gemv node tests. (Calls 9-10: a device build of the Python module ran past the 10-minute limit
# twice, at the cooperative instances' translation unit; pytest did not run.)
set -u
B=build-probe/s39g/tests/graphgemm_gpu_tests
gunzip -f $B.gz; chmod +x $B
nvidia-smi --query-gpu=name --format=csv,noheader
$B --gtest_filter='*gemv*' > $OUT/gemv_nodes.txt 2>&1; echo "gemv node tests rc=$?"; grep -E "^\[  (PASSED|FAILED)|OK \]" $OUT/gemv_nodes.txt | tail -4
timeout 240 $B > $OUT/gpu_tests.txt 2>&1; echo "gpu tests rc=$?"; grep -E "^\[  PASSED|^\[  FAILED|tests ran" $OUT/gpu_tests.txt
timeout 150 compute-sanitizer --tool memcheck $B --gtest_filter='*gemv*' > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$?"; tail -2 $OUT/memcheck.txt
