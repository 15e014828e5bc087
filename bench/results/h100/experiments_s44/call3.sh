#!/usr/bin/env bash
# Session 44, call 3 (the final build: the wide tile with two consumer warpgroups and its rule): the
# GPU tests and memcheck on the swap-AB tests (with T set: the tests' pack), then, as a second call
# with B set (the two packs do not fit one call), the B K x N suites (llm, square, splitk) beside
# cuBLASLt, one round.
set -u
B=${B:-}
T=${T:-}
if [ -n "$T" ]; then
  [ -x $T/tests/graphgemm_gpu_tests ] || tools/unpack_prebuilt.sh $T
  timeout 250 $T/tests/graphgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo "gpu tests rc=$?"; tail -3 $OUT/gpu_tests.log
  timeout 180 compute-sanitizer --tool memcheck $T/tests/graphgemm_gpu_tests --gtest_filter='Sm90.SwapABKernels' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -2 $OUT/memcheck.log
fi
if [ -n "$B" ]; then
  [ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
  timeout 130 $B/bench/graphgemm_bench --suites llm,square,splitk --dtypes bf16 --b-layout kn --no-peak --backends cublaslt,sm90 --out $OUT/kn > $OUT/kn.log 2>&1; echo "bench rc=$?"
  python3 tools/diag/suite_summary.py $OUT/kn/gemm_bf16_bkn.json 2>&1 | tail -15
fi
