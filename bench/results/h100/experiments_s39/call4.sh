#!/usr/bin/env bash
# Session 39, call 4: every GPU test, the gemv instances through sm90_gemm_check, memcheck and
# racecheck on the gemv tests.
set -u
B=build-probe/s39t
for f in tests/graphgemm_gpu_tests tools/sm90_gemm_check; do gunzip -f $B/$f.gz; chmod +x $B/$f; done
nvidia-smi --query-gpu=name --format=csv,noheader
$B/tools/sm90_gemm_check --quick --filter=gemv > $OUT/check.txt 2>&1; echo "check rc=$?"; grep -E "gemv|FAIL" $OUT/check.txt | head -20
timeout 300 $B/tests/graphgemm_gpu_tests > $OUT/gpu_tests.txt 2>&1; echo "gpu tests rc=$?"; tail -4 $OUT/gpu_tests.txt
timeout 120 compute-sanitizer --tool memcheck $B/tests/graphgemm_gpu_tests --gtest_filter='*Gemv*' > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$?"; tail -3 $OUT/memcheck.txt
timeout 120 compute-sanitizer --tool racecheck $B/tests/graphgemm_gpu_tests --gtest_filter='Sm90.GemvKernels' > $OUT/racecheck.txt 2>&1; echo "racecheck rc=$?"; tail -3 $OUT/racecheck.txt
