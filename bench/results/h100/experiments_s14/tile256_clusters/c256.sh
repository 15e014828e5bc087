#!/usr/bin/env bash
# Session 14: 128x256 in 1x1 vs 2x1 clusters forced over llm M >= 1024 and square, beside the
# automatic choice; three rounds in one call (binary of 328f8be / d6bcb1d).
set -u
d=build-probe/s14d
find $d -name '*.gz' -exec gunzip -f {} +; chmod +x $d/*/*
k=sm90=sm90_bf16_bf16_128x256x64_s4
for r in 1 2 3; do
$d/bench/graphgemm_bench --suites llm,square --dtypes bf16 --no-peak --backends cublaslt,sm90,${k}_c1x1,${k}_c2x1 --out $OUT/r$r > $OUT/r$r.log 2>&1 || echo "bench failed"
done
cd $OUT && tar czf c256.tgz r1 r2 r3 && rm -rf r1 r2 r3
