#!/usr/bin/env bash
# Session 33, call 6: the GPU tests on the final build (143a934's heuristic), and the clock probe
# (3 s turns, 2 rounds) with the new automatic choice beside cuBLASLt on four moved shapes.
set -uo pipefail
B=build-probe/s33e
find $B -name '*.gz' -exec gunzip -f {} +; chmod +x $B/*/*
o=$OUT/call6; mkdir -p $o
timeout 400 $B/tests/graphgemm_gpu_tests > $o/gtest.log 2>&1; echo "gtest rc=$?"; tail -3 $o/gtest.log
timeout 120 $B/bench/graphgemm_clock_probe 8192x8192x8192,6144x6144x6144,4096x4096x4096,4096x8192x8192 cublaslt,sm90 3 2 > $o/clock.txt 2>&1; echo "clock rc=$?"
tail -17 $o/clock.txt
cd $OUT && tar czf call6.tgz call6 && rm -rf call6
