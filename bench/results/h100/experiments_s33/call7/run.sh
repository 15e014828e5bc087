#!/usr/bin/env bash
# Session 33, call 7: the review mend's bench (--sustain-ms) and clock probe (nvidia-smi ended by pid)
# run: one shape sustained, the probe for 2 s turns, one round.
set -uo pipefail
B=build-probe/s33f
find $B -name '*.gz' -exec gunzip -f {} +; chmod +x $B/*/*
o=$OUT/call7; mkdir -p $o
$B/bench/graphgemm_bench --shape 4096x4096x4096 --dtypes bf16 --no-peak --backends cublaslt,sm90 --sustain-ms 500 --out $o/sustained > $o/sustained.log 2>&1; echo "bench rc=$?"
tail -2 $o/sustained.log
timeout 60 $B/bench/graphgemm_clock_probe 8192x8192x8192 cublaslt,sm90 2 1 > $o/clock.txt 2>&1; echo "clock rc=$?"
tail -3 $o/clock.txt; pgrep -a nvidia-smi || echo "no nvidia-smi left"
