#!/usr/bin/env bash
# Session 39, call 3: A/B of the automatic choice at decode sizes, new (gemv at M <= 8) against old
# (s39b: the same kernels, session 38's heuristic), alternating, two rounds: the llm / splitk shapes
# at M <= 16 and M = 4 / 8 on six llm weights.
set -u
NEW=build-probe/s39n/bench/graphgemm_bench OLD=build-probe/s39b/bench/graphgemm_bench
for f in $NEW $OLD; do gunzip -f $f.gz; chmod +x $f; done
nvidia-smi --query-gpu=name --format=csv,noheader
for round in 1 2; do
  for v in new old; do
    B=$NEW; [ $v = old ] && B=$OLD
    $B --suites llm,splitk --max-m 16 --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/r${round}_$v/suite > $OUT/r${round}_$v.log 2>&1 || echo "$v suite rc=$?"
    for s in 4x4096x4096 8x4096x4096 8x6144x4096 8x2112x7168 8x7168x2048 8x8192x8192 8x4096x14336 4x7168x16384; do
      $B --shape $s --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/r${round}_$v/$s >> $OUT/r${round}_$v.log 2>&1 || echo "$v $s rc=$?"
    done
  done
done
ls $OUT
