#!/usr/bin/env bash
# Session 33, call 3 (issue 3): square + llm M >= 1024 timed sustained (each backend alone for 1 s
# before its timed replays: its own clock under the power cap) and, for comparison, in turns (the
# bench's default): cuBLASLt, automatic, and the cooperative 128x256 tile forced (c2x1, c1x1).
set -uo pipefail
B=build-probe/s33b
find $B -name '*.gz' -exec gunzip -f {} +; chmod +x $B/bench/*
o=$OUT/call3; mkdir -p $o
K="sm90_bf16_bf16"
BE="cublaslt,sm90,sm90=${K}_128x256x64_s4_c2x1_bk,sm90=${K}_128x256x64_s4_c1x1_bk"
t0=$SECONDS
$B/bench/graphgemm_bench --suites square,llm --min-m 1024 --dtypes bf16 --no-peak --backends $BE --sustain-ms 1000 --out $o/sustained > $o/sustained.log 2>&1
echo "sustained rc=$? $((SECONDS-t0)) s"
t0=$SECONDS
$B/bench/graphgemm_bench --suites square,llm --min-m 1024 --dtypes bf16 --no-peak --backends $BE --out $o/turns > $o/turns.log 2>&1
echo "turns rc=$? $((SECONDS-t0)) s"
cd $OUT && tar czf call3.tgz call3 && rm -rf call3
