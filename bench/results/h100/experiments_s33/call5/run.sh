#!/usr/bin/env bash
# Session 33, call 5 (issue 3): the rule "no ping-pong where M >= 1024, K >= 4096 and the 128x256
# tiles fill >= 3 waves" measured in one binary: automatic (new) beside the ping-pong 128x128 forced
# (automatic's old choice on the 12 moved shapes). Square + llm M >= 1024 sustained (--sustain-ms
# 500) and in turns, two rounds each; the B K x N shape that moves to 128x192; then the default
# suites (llm, square, splitk) in turns, cuBLASLt and automatic, for the figures.
set -uo pipefail
B=build-probe/s33d
find $B -name '*.gz' -exec gunzip -f {} +; chmod +x $B/bench/*
o=$OUT/call5; mkdir -p $o
K="sm90_bf16_bf16"
BE="cublaslt,sm90,sm90=${K}_128x128x64_s6_c1x1_pp_bk"
for r in 1 2; do
  t0=$SECONDS
  $B/bench/graphgemm_bench --suites square,llm --min-m 1024 --dtypes bf16 --no-peak --backends $BE --sustain-ms 500 --out $o/sustained_$r > $o/sustained_$r.log 2>&1
  echo "sustained $r rc=$? $((SECONDS-t0)) s"
  $B/bench/graphgemm_bench --suites square,llm --min-m 1024 --dtypes bf16 --no-peak --backends $BE --out $o/turns_$r > $o/turns_$r.log 2>&1
  echo "turns $r rc=$?"
  $B/bench/graphgemm_bench --shape 8192x2112x7168 --b-layout kn --dtypes bf16 --no-peak --backends cublaslt,sm90,sm90=${K}_128x128x64_s6_c1x1_pp_bn --sustain-ms 1000 --out $o/kn_sustained_$r > $o/kn_sustained_$r.log 2>&1
  $B/bench/graphgemm_bench --shape 8192x2112x7168 --b-layout kn --dtypes bf16 --no-peak --backends cublaslt,sm90,sm90=${K}_128x128x64_s6_c1x1_pp_bn --out $o/kn_turns_$r > $o/kn_turns_$r.log 2>&1
  echo "kn $r rc=$?"
done
t0=$SECONDS
$B/bench/graphgemm_bench --suites llm,square,splitk --dtypes bf16 --backends cublaslt,sm90 --out $o/suite > $o/suite.log 2>&1
echo "suite rc=$? $((SECONDS-t0)) s"
cd $OUT && tar czf call5.tgz call5 && rm -rf call5
