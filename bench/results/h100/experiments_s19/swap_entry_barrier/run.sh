#!/usr/bin/env bash
# Session 19, call 7: the swap-AB cluster sum's entry barrier in two halves. Old (build-probe/s19g,
# 43146b4) and new (build-probe/s19h) benches alternating, two rounds each, on splitk + llm M <= 32
# (the swap-AB shapes); sm90_trace old (s19t) / new (s19u) on deepseek_v3.a M = 1 (16x64x256, two
# slices summed in a cluster of 2); the new GPU tests, and memcheck / racecheck on the swap-AB
# cluster-sum tests.
set -uo pipefail
cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
gunzip -c build-probe/s19g/bench/graphgemm_bench.gz > /tmp/gg_old && chmod +x /tmp/gg_old
gunzip -c build-probe/s19h/bench/graphgemm_bench.gz > /tmp/gg_new && chmod +x /tmp/gg_new
gunzip -c build-probe/s19h/tests/graphgemm_gpu_tests.gz > /tmp/gg_tests && chmod +x /tmp/gg_tests
gunzip -c build-probe/s19t/sm90_trace.gz > /tmp/tr_old && chmod +x /tmp/tr_old
gunzip -c build-probe/s19u/sm90_trace.gz > /tmp/tr_new && chmod +x /tmp/tr_new
timeout 240 /tmp/gg_tests > $OUT/gtest.log 2>&1; echo "gtest rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/gtest.log | head -2 | tr '\n' ' ')"
F='Sm90SplitK.SwapABClusterSumsBitwiseAndOneGraphNode:Sm90.SwapABKernels'
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 /tmp/gg_tests --gtest_filter="$F" > $OUT/$tool.log 2>&1
  echo "$tool rc $? $(tail -n 1 $OUT/$tool.log)"
done
for round in 1 2; do
  for v in old new; do
    /tmp/gg_$v --suites splitk,llm --max-m 32 --dtypes bf16 --no-peak --out $OUT/${v}_r$round \
      --backends cublaslt,sm90 > $OUT/${v}_r$round.log 2>&1; echo "$v round $round rc $?"
    /tmp/tr_$v 1 2112 7168 sw16x64x256 parallel 2 - 2 > $OUT/trace_${v}_r$round.txt 2>&1
  done
done
cd $OUT && tar czf results.tgz old_r* new_r* trace_* gtest.log memcheck.log racecheck.log && ls
