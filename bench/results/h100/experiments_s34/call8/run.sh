#!/usr/bin/env bash
# Session 34, call 8 (issue 3): the epilogue kind switched once per block instead of once per chunk
# (each kind's chunks contiguous in the code). A/B: the base build (HEAD before the change, s34f)
# and the new one (s34g), each cuBLASLt beside automatic, in turns, alternating base / new / base /
# new: the default suites (llm, square, splitk) and square + llm M >= 1024 with a bias; then the
# GPU tests and sm90_gemm_check on the new build.
set -uo pipefail
BASE=build-probe/s34f
NEW=build-probe/s34g
find $BASE $NEW -name '*.gz' -exec gunzip -f {} +; chmod +x $BASE/bench/* $NEW/bench/*
o=$OUT/call8; mkdir -p $o
for r in 1 2; do
  for v in base new; do
    if [ $v = base ]; then B=$BASE; else B=$NEW; fi
    $B/bench/graphgemm_bench --suites llm,square,splitk --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $o/${v}_$r > $o/${v}_$r.log 2>&1
    echo "$v $r rc=$?"
    $B/bench/graphgemm_bench --suites square,llm --min-m 1024 --epilogue bias --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $o/${v}_bias_$r > $o/${v}_bias_$r.log 2>&1
    echo "$v bias $r rc=$?"
  done
done
# (GPU tests and sm90_gemm_check: call 9, the carry limit)

cd $OUT && tar czf call8.tgz call8 && rm -rf call8
