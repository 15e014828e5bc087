#!/usr/bin/env bash
# Session 14 final run (64ad7b0 + the split rule): GPU tests, check, split-K table, suite bench;
# then splitk A/B against b8ce75b (old/), two alternating rounds.
set -u
d=build-probe/s14d
OUT=$OUT/run BUILD=$d STEPS="test check splitk bench" BENCH_ARGS="--suites square,llm,splitk --dtypes bf16 --backends cublaslt,sm90,sm90:none" tools/device_run.sh > /dev/null 2>&1
cat $OUT/run/summary.txt
for r in 1 2; do
  for v in new old; do
    b=$d/bench/graphgemm_bench; [ $v = old ] && b=$d/old/graphgemm_bench
    $b --suites splitk --dtypes bf16 --backends cublaslt,sm90 --no-peak --out $OUT/${v}$r > $OUT/${v}$r.log 2>&1 || echo "bench $v$r failed"
  done
  python3 tools/diag/compare_bench.py $OUT/new$r/gemm_bf16.json $OUT/old$r/gemm_bf16.json --threshold 0.03
done
cd $OUT && tar czf splitk_ab.tgz new1 old1 new2 old2 && rm -rf new1 old1 new2 old2
