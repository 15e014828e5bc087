#!/usr/bin/env bash
# Session 34, call 11 (issue 3, diagnostic): call 7 again on be10419 (the epilogue switched per block)
# against cuBLASLt's same configuration (session 33: 297 k against 283 k cycles). ncu at locked
# clocks, one eager launch each: warp states, compute workload (pipe utilization), source counters
# (SASS-level stall samples); pages exported as CSV.
set -uo pipefail
B=build-probe/s34g
find $B -name '*.gz' -exec gunzip -f {} +; chmod +x $B/bench/*
o=$OUT/call11; mkdir -p $o
for be in sm90; do
  ncu --kernel-name regex:'gemm|nvjet' --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section SourceCounters --section LaunchStats \
    -o $o/rep_$be $B/bench/graphgemm_bench --shape 4096x4096x4096 --backends $be --dtypes bf16 --batches 1 --no-peak --out $o/bench_$be > $o/ncu_$be.log 2>&1
  echo "ncu $be rc=$?"
  ncu -i $o/rep_$be.ncu-rep --page details --csv > $o/details_$be.csv 2>&1; echo "details rc=$?"
  ncu -i $o/rep_$be.ncu-rep --page raw --csv > $o/raw_$be.csv 2>&1; echo "raw rc=$?"
  ncu -i $o/rep_$be.ncu-rep --page source --csv --print-source sass > $o/source_$be.csv 2>&1 || \
    ncu -i $o/rep_$be.ncu-rep --page source --csv > $o/source_$be.csv 2>&1
  echo "source rc=$? $(wc -l < $o/source_$be.csv) lines"
done
rm -f $o/rep_*.ncu-rep
cd $OUT && tar czf call11.tgz call11 && rm -rf call11
