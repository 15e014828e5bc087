#!/usr/bin/env bash
# Session 15: automatic programmatic launch against none, llm + square up to M = 1024, three rounds
# (83b0caa's binary); the 64x128 tile forced beside (it beat swap-AB at some M = 16 shapes).
set -u
d=build-probe/s15b
find $d -name '*.gz' -exec gunzip -f {} +; chmod +x $d/*/*
for r in 1 2 3; do
  $d/old/graphgemm_bench --suites llm,square --max-m 1024 --dtypes bf16 --no-peak \
    --backends cublaslt,sm90,sm90+nopdl,sm90=sm90_bf16_bf16_64x128x64_s8_c1x1 --out $OUT/r$r > $OUT/r$r.log 2>&1 || echo "bench $r failed"
done
cd $OUT && tar czf pdl.tgz r1 r2 r3 && rm -rf r1 r2 r3
