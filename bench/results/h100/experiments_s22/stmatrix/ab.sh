#!/usr/bin/env bash
# Session 22: the stmatrix epilogue (and staging buffers per chunk where they fit: 128x192,
# 128x136, fp32-out 64x128) in the library build. GPU tests, the sm90 check and the sanitizers on
# the epilogue tests (new build), the trace A/B (trace.sh), then the suites with the old
# (2806cc8, build-probe/s21) and new benchmark binaries alternating. ROUNDS="1" or "2" picks the
# rounds (one device call holds one round of the three suites); TESTS=0 skips the tests.
set -u
NEW=build-probe/s22new OLD=build-probe/s21
find $NEW $OLD -name '*.gz' -exec gunzip -f {} +
chmod +x $NEW/*/* $OLD/bench/*
if [ "${TESTS:-1}" = 1 ]; then
  timeout 300 $NEW/tests/graphgemm_gpu_tests > $OUT/gtest.log 2>&1; echo "gtest rc $?: $(grep -E '^\[  (PASSED|FAILED)' $OUT/gtest.log | tr '\n' ' ')"
  timeout 200 $NEW/tools/sm90_gemm_check > $OUT/check.log 2>&1; echo "check rc $?: $(tail -n 1 $OUT/check.log)"
  OUT=$OUT bash bench/results/h100/experiments_s20/epilogue_batch/sanitize_epilogues.sh $NEW/tests/graphgemm_gpu_tests
  bash bench/results/h100/experiments_s22/stmatrix/trace.sh > $OUT/trace.txt 2>&1; cat $OUT/trace.txt
fi
for r in ${ROUNDS:-1}; do
  for v in old new; do
    B=$OLD; [ $v = new ] && B=$NEW
    timeout 250 $B/bench/graphgemm_bench --suites square,llm,splitk --dtypes bf16 --backends cublaslt,sm90 --out $OUT/ab_${v}_r$r > $OUT/bench_${v}_r$r.log 2>&1
    echo "bench $v round $r rc $?"
  done
done
cd $OUT && tar czf "ab_r$(echo ${ROUNDS:-1} | tr -d " ").tgz" ab_* bench_*.log *.log trace.txt 2>/dev/null; rm -rf ab_old_r* ab_new_r* bench_*.log
