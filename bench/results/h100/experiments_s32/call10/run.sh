#!/usr/bin/env bash
# Session 32, call 10: the splitk suite, final build (new) against HEAD 9ee402b's kernels (old),
# alternating, four rounds (call 7 had 128x128x16384 at 1.05x cuBLASLt new against 1.07-1.08 old,
# with both backends ~10% slower in the new runs).
set -u
b=build-probe/s32
find $b -name '*.gz' -exec gunzip -f {} + ; find $b -type f -exec chmod +x {} +
o=${OUT:-/tmp/out}; mkdir -p $o; t=/tmp/c10; mkdir -p $t
for round in 1 2 3 4; do
  for v in old new; do
    bin=$b/bench/graphgemm_bench; [ $v = old ] && bin=$b/old/graphgemm_bench
    $bin --suites splitk --backends cublaslt,sm90 --out $t/${v}_$round > $t/${v}_$round.log 2>&1
    cp $t/${v}_$round/gemm_bf16.json $o/${v}_$round.json
  done
done
(cd $o && tar czf splitk.tgz *.json && rm -f *.json)
