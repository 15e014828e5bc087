#!/usr/bin/env bash
# Session 40, call 4: A/B of automatic, new (16-token gemv rule at M = 9..16) against old (call 2's
# binary: the same kernels, session 39's rule), alternating, two rounds: the llm / splitk shapes at
# M <= 16 and the M = 12 / 16 sweep; then the final suite run with the new binary (committed gemm_bf16.*).
set -u
NEW=build-probe/s40c/bench/graphgemm_bench OLD=build-probe/s40b/bench/graphgemm_bench
for f in $NEW $OLD; do gunzip -f $f.gz; chmod +x $f; done
nvidia-smi --query-gpu=name --format=csv,noheader
for round in 1 2; do
  for v in new old; do
    B=$NEW; [ $v = old ] && B=$OLD
    timeout 60 $B --suites llm,splitk --max-m 16 --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/r${round}_$v/suite > $OUT/r${round}_$v.log 2>&1 || echo "$v suite rc=$?"
    timeout 60 $B --shapes bench/results/h100/experiments_s40/sweep_shapes.json --suites sweep --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/r${round}_$v/sweep >> $OUT/r${round}_$v.log 2>&1 || echo "$v sweep rc=$?"
  done
done
timeout 300 $NEW --suites llm,square,splitk --dtypes bf16 --backends cublaslt,sm90 --out $OUT/final > $OUT/final.log 2>&1; echo "final rc=$?"
tail -2 $OUT/final.log
