#!/usr/bin/env bash
# Session 19, call 9: relaxed arrive on the entry cluster barrier (build-probe/s19i) against
# 43146b4 (build-probe/s19g): GPU tests, memcheck / racecheck on the clustered kernels' tests,
# benches alternating, two rounds, splitk + llm M <= 32.
set -uo pipefail
cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
gunzip -c build-probe/s19g/bench/graphgemm_bench.gz > /tmp/gg_old && chmod +x /tmp/gg_old
gunzip -c build-probe/s19i/bench/graphgemm_bench.gz > /tmp/gg_new && chmod +x /tmp/gg_new
gunzip -c build-probe/s19i/tests/graphgemm_gpu_tests.gz > /tmp/gg_tests && chmod +x /tmp/gg_tests
timeout 240 /tmp/gg_tests > $OUT/gtest.log 2>&1; echo "gtest rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/gtest.log | head -2 | tr '\n' ' ')"
F='Sm90SplitK.SwapABClusterSumsBitwiseAndOneGraphNode:Sm90.SwapABKernels:Sm90.EveryKernelInstance:Sm90Pingpong.*:Sm90SplitK.ClusterSumsEveryClusterSizeShapeAndEpilogue'
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 1 /tmp/gg_tests --gtest_filter="$F" > $OUT/$tool.log 2>&1
  echo "$tool rc $? $(grep -E '^\[  PASSED' $OUT/$tool.log) $(tail -n 1 $OUT/$tool.log)"
done
for round in 1 2; do
  for v in old new; do
    /tmp/gg_$v --suites splitk,llm --max-m 32 --dtypes bf16 --no-peak --out $OUT/${v}_r$round \
      --backends cublaslt,sm90 > $OUT/${v}_r$round.log 2>&1; echo "$v round $round rc $?"
  done
done
cd $OUT && tar czf results9.tgz old_r* new_r* gtest.log memcheck.log racecheck.log && ls
