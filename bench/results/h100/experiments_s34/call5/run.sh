#!/usr/bin/env bash
# Session 34, call 5 (issue 4): node updates through the driver with the CUkernel the runtime put
# into the node (cudaGetKernel) instead of a CUfunction (cudaGetFuncBySymbol). The graph bench
# twice (the tiny workflow's probes: the combined approach's updates through the driver with either
# handle), the host bench (host time per update), and the GPU tests.
set -uo pipefail
B=build-probe/s34d
find $B -name '*.gz' -exec gunzip -f {} +; chmod +x $B/bench/* $B/tests/*
o=$OUT/call5; mkdir -p $o
for r in 1 2; do
  timeout 200 $B/bench/graphgemm_graph_bench --out $o/graph_$r > $o/graph_$r.log 2>&1
  echo "graph bench $r rc=$?"
  grep -E "^\| (combined|ours|plain|probe: combined)" $o/graph_$r/graph_bench.md | cut -c1-120
done
timeout 120 $B/bench/graphgemm_host_bench --out $o/host > $o/host.log 2>&1; echo "host bench rc=$?"; tail -15 $o/host.log
timeout 300 $B/tests/graphgemm_gpu_tests > $o/gtest.log 2>&1; echo "gpu tests rc=$?"; tail -3 $o/gtest.log
cd $OUT && tar czf call5.tgz call5 && rm -rf call5
