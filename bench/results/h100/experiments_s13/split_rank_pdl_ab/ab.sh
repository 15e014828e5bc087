#!/usr/bin/env bash
# Session 13 A/B 3: split candidates ranked with the programmatic launch's gain (new) vs d369a43 (old); splitk suite, alternating rounds.
set -u
d=build-probe/s13c
find $d -name '*.gz' -exec gunzip -f {} +; chmod +x $d/*/*
for r in 1 2 3; do
  for v in old new; do
    b=$d/bench/graphgemm_bench; [ $v = old ] && b=$d/old/graphgemm_bench
    $b --suites splitk --dtypes bf16 --backends cublaslt,sm90 --no-peak --out $OUT/${v}$r > $OUT/${v}$r.log 2>&1 || echo "bench $v$r failed"
  done
  python3 tools/diag/compare_bench.py $OUT/new$r/gemm_bf16.json $OUT/old$r/gemm_bf16.json --threshold 0.03
done
grep -h "128x256x32768" $OUT/*.log
