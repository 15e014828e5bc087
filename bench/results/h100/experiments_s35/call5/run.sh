#!/usr/bin/env bash
# Session 35, call 5 (issue 3): the deferred epilogue, third form (a unit's D chunks stored while the next
# unit's first k-blocks run; PackedBlock in sm90_gemm.cuh). A/B: the base build (HEAD 32d88a8,
# s35base) and the new one (s35d), each cuBLASLt beside automatic in its own bench run, in turns,
# alternating base / new, three rounds: the default suites (llm, square, splitk) and square + llm
# M >= 1024 with a bias. s35d: the first form (every block deferred, the general epilogue too) in
# the 128x256 c2x1 kernel only; every other kernel stores as before.
set -uo pipefail
BASE=build-probe/s35base
NEW=build-probe/s35d
find $BASE $NEW -name '*.gz' -exec gunzip -f {} +; chmod +x $BASE/bench/* $NEW/bench/*
o=$OUT/call5; mkdir -p $o
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv > $o/gpu.txt
for r in 1 2 3; do
  for v in base new; do
    if [ $v = base ]; then B=$BASE; else B=$NEW; fi
    timeout 150 $B/bench/graphgemm_bench --suites llm,square,splitk --dtypes bf16 --backends cublaslt,sm90 --out $o/${v}_$r > $o/${v}_$r.log 2>&1
    echo "$v $r rc=$?"
    timeout 100 $B/bench/graphgemm_bench --suites square,llm --min-m 1024 --epilogue bias --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $o/${v}_bias_$r > $o/${v}_bias_$r.log 2>&1
    echo "$v bias $r rc=$?"
  done
done
python3 bench/plot.py $o/new_1 > $o/plot.log 2>&1; echo "plot rc=$?"
cd $OUT && tar czf call5.tgz call5 && rm -rf call5
