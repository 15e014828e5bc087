#!/usr/bin/env bash
# Session 34, call 3: the sustained mode with alternating turn order (forward, then backward).
# Check: identical backends under two names (cublaslt / cublaslt+nopdl, sm90 / sm90+nopdl: the
# same calls) must agree; 2 and 4 rounds. Then session 33's comparison again without the order
# bias: square + llm M >= 1024 sustained, cuBLASLt, automatic and the ping-pong 128x128 forced
# (the choice the session-33 rule replaced on 12 shapes).
set -uo pipefail
B=build-probe/s34b
find $B -name '*.gz' -exec gunzip -f {} +; chmod +x $B/bench/*
o=$OUT/call3; mkdir -p $o
for s in 4096x4096x4096 6144x6144x6144 4096x8192x8192; do
  for rounds in 2 4; do
    $B/bench/graphgemm_bench --shape $s --dtypes bf16 --no-peak --backends cublaslt,sm90,sm90+nopdl,cublaslt+nopdl \
      --sustain-ms 500 --sustain-rounds $rounds --out $o/dup_${s}_r$rounds > $o/dup_${s}_r$rounds.log 2>&1
    echo "dup $s rounds $rounds rc=$?"
  done
done
t0=$SECONDS
$B/bench/graphgemm_bench --suites square,llm --min-m 1024 --dtypes bf16 --no-peak \
  --backends cublaslt,sm90,sm90=sm90_bf16_bf16_128x128x64_s6_c1x1_pp_bk --sustain-ms 500 --out $o/sustained > $o/sustained.log 2>&1
echo "sustained suites rc=$? $((SECONDS-t0)) s"
cd $OUT && tar czf call3.tgz call3 && rm -rf call3
