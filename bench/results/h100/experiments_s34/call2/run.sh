#!/usr/bin/env bash
# Session 34, call 2 (issue 3): is call 1's sustained gain of the stagger real, or the order the
# backends ran in? Sustained (--sustain-ms 500), each shape twice with the sm90 variants in
# opposite orders, cuBLASLt first and again last (cublaslt+nopdl: the same cuBLASLt call under a
# second name), sm90+stg0 = automatic under a second name.
set -uo pipefail
B=build-probe/s34a
find $B -name '*.gz' -exec gunzip -f {} +; chmod +x $B/bench/*
o=$OUT/call2; mkdir -p $o
A="cublaslt,sm90,sm90+stg0,sm90+stg2048,cublaslt+nopdl"
R="cublaslt,sm90+stg2048,sm90+stg0,sm90,cublaslt+nopdl"
for s in 4096x4096x4096 6144x6144x6144 4096x8192x8192; do
  for ord in A R; do
    be=${!ord}
    $B/bench/graphgemm_bench --shape $s --dtypes bf16 --no-peak --backends $be --sustain-ms 500 --out $o/sus_${s}_$ord > $o/sus_${s}_$ord.log 2>&1
    echo "sustained $s $ord rc=$?"
  done
done
cd $OUT && tar czf call2.tgz call2 && rm -rf call2
