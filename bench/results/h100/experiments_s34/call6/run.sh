#!/usr/bin/env bash
# Session 34, call 6: the final sustained mode (mean over segments, 4 rounds forward / backward by
# default): the duplicate-name check once more, and the square suite sustained and in turns.
set -uo pipefail
B=build-probe/s34e
find $B -name '*.gz' -exec gunzip -f {} +; chmod +x $B/bench/*
o=$OUT/call6; mkdir -p $o
for s in 4096x4096x4096 6144x6144x6144; do
  $B/bench/graphgemm_bench --shape $s --dtypes bf16 --no-peak --backends cublaslt,sm90,sm90+nopdl,cublaslt+nopdl \
    --sustain-ms 500 --out $o/dup_$s > $o/dup_$s.log 2>&1
  echo "dup $s rc=$?"
done
$B/bench/graphgemm_bench --suites square --dtypes bf16 --no-peak --backends cublaslt,sm90 --sustain-ms 500 --out $o/square_sustained > $o/square_sustained.log 2>&1
echo "square sustained rc=$?"
$B/bench/graphgemm_bench --suites square --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $o/square_turns > $o/square_turns.log 2>&1
echo "square turns rc=$?"
cd $OUT && tar czf call6.tgz call6 && rm -rf call6
