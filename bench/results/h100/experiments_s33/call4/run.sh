#!/usr/bin/env bash
# Session 33, call 4 (issue 3): square + llm M >= 1024 sustained (--sustain-ms 500: each backend
# alone 0.5 s, then 10 timed segments over ~0.5 s), two rounds: cuBLASLt, automatic, cooperative
# 128x256 forced (c2x1, c1x1); then graphgemm_clock_probe (3 s turns, 2 rounds) on four shapes
# where automatic runs ping-pong 128x128, as a cross-check.
set -uo pipefail
B=build-probe/s33c
find $B -name '*.gz' -exec gunzip -f {} +; chmod +x $B/bench/*
o=$OUT/call4; mkdir -p $o
K="sm90_bf16_bf16"
BE="cublaslt,sm90,sm90=${K}_128x256x64_s4_c2x1_bk,sm90=${K}_128x256x64_s4_c1x1_bk"
for r in 1 2; do
  t0=$SECONDS
  $B/bench/graphgemm_bench --suites square,llm --min-m 1024 --dtypes bf16 --no-peak --backends $BE --sustain-ms 500 --out $o/sustained_$r > $o/sustained_$r.log 2>&1
  echo "sustained $r rc=$? $((SECONDS-t0)) s"
done
timeout 150 $B/bench/graphgemm_clock_probe 4096x6144x4096,4096x8192x8192,6144x6144x6144,2048x2048x2048 $BE 3 2 > $o/clock.txt 2>&1
echo "clock rc=$?"
cd $OUT && tar czf call4.tgz call4 && rm -rf call4
