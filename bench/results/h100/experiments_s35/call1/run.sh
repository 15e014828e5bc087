#!/usr/bin/env bash
# Session 35, call 1 (issue 3): the deferred epilogue (a unit's D chunks stored while the next
# unit's first k-blocks run; PackedBlock in sm90_gemm.cuh). A/B: the base build (HEAD 32d88a8,
# s35base) and the new one (s35a), each cuBLASLt beside automatic in its own bench run, in turns,
# alternating base / new, two rounds: the default suites (llm, square, splitk) and square + llm
# M >= 1024 with a bias.
set -uo pipefail
BASE=build-probe/s35base
NEW=build-probe/s35a
find $BASE $NEW -name '*.gz' -exec gunzip -f {} +; chmod +x $BASE/bench/* $NEW/bench/*
o=$OUT/call1; mkdir -p $o
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv > $o/gpu.txt
for r in 1 2; do
  for v in base new; do
    if [ $v = base ]; then B=$BASE; else B=$NEW; fi
    timeout 150 $B/bench/graphgemm_bench --suites llm,square,splitk --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $o/${v}_$r > $o/${v}_$r.log 2>&1
    echo "$v $r rc=$?"
    timeout 100 $B/bench/graphgemm_bench --suites square,llm --min-m 1024 --epilogue bias --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $o/${v}_bias_$r > $o/${v}_bias_$r.log 2>&1
    echo "$v bias $r rc=$?"
  done
done
cd $OUT && tar czf call1.tgz call1 && rm -rf call1
