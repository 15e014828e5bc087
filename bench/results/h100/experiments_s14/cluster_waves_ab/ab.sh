#!/usr/bin/env bash
# Session 14 A/B: cluster tiles only past two waves (new) vs d6bcb1d (old); square + llm, three
# alternating rounds.
set -u
d=build-probe/s14f
find $d -name '*.gz' -exec gunzip -f {} +; chmod +x $d/*/*
for r in 1 2 3; do
  for v in new old; do
    b=$d/bench/graphgemm_bench; [ $v = old ] && b=$d/old/graphgemm_bench
    $b --suites square,llm --dtypes bf16 --backends cublaslt,sm90 --no-peak --out $OUT/${v}$r > $OUT/${v}$r.log 2>&1 || echo "bench $v$r failed"
  done
  python3 tools/diag/compare_bench.py $OUT/new$r/gemm_bf16.json $OUT/old$r/gemm_bf16.json --threshold 0.02
done
cd $OUT && tar czf ab.tgz new1 old1 new2 old2 new3 old3 && rm -rf new? old?
