#!/usr/bin/env bash
# Session 34, call 10 (issue 3): no multiply where alpha is 1 and there is no scale_a (kUnscaledEpilogue)
# A/B: the base build (be10419, s34g) and the new one (s34i), each cuBLASLt beside automatic, in
# turns, alternating base / new / base / new: the default suites (llm, square, splitk, with the
# 8192^3 peak run: the new build's first round is the committed gemm_bf16.*) and square + llm
# M >= 1024 with a bias. GPU tests and sm90_gemm_check on the new build: call 11 (carry limit).
set -uo pipefail
BASE=build-probe/s34g
NEW=build-probe/s34i
find $BASE $NEW -name '*.gz' -exec gunzip -f {} +; chmod +x $BASE/bench/* $NEW/bench/*
o=$OUT/call10; mkdir -p $o
for r in 1 2; do
  for v in base new; do
    if [ $v = base ]; then B=$BASE; else B=$NEW; fi
    $B/bench/graphgemm_bench --suites llm,square,splitk --dtypes bf16 --backends cublaslt,sm90 --out $o/${v}_$r > $o/${v}_$r.log 2>&1
    echo "$v $r rc=$?"
    $B/bench/graphgemm_bench --suites square,llm --min-m 1024 --epilogue bias --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $o/${v}_bias_$r > $o/${v}_bias_$r.log 2>&1
    echo "$v bias $r rc=$?"
  done
done
cd $OUT && tar czf call10.tgz call10 && rm -rf call10
