#!/usr/bin/env bash
# Session 19, call 11: the swap-AB cluster sum's exit barrier with a relaxed arrive (build-probe/s19l)
# against 482a58d (build-probe/s19j): GPU tests, memcheck / racecheck on the swap-AB cluster-sum
# tests, sm90_trace (s19k) of deepseek_v3.a M = 1 in clusters of 2, benches alternating, two rounds,
# splitk + llm M <= 32.
set -uo pipefail
cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
gunzip -c build-probe/s19j/bench/graphgemm_bench.gz > /tmp/gg_old && chmod +x /tmp/gg_old
gunzip -c build-probe/s19l/bench/graphgemm_bench.gz > /tmp/gg_new && chmod +x /tmp/gg_new
gunzip -c build-probe/s19l/tests/graphgemm_gpu_tests.gz > /tmp/gg_tests && chmod +x /tmp/gg_tests
gunzip -c build-probe/s19k/sm90_trace.gz > /tmp/tr && chmod +x /tmp/tr
timeout 240 /tmp/gg_tests > $OUT/gtest.log 2>&1; echo "gtest rc $? $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/gtest.log | head -2 | tr '\n' ' ')"
F='Sm90SplitK.SwapABClusterSumsBitwiseAndOneGraphNode:Sm90.SwapABKernels:Sm90SplitK.ClusterSumsEveryClusterSizeShapeAndEpilogue'
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 1 /tmp/gg_tests --gtest_filter="$F" > $OUT/$tool.log 2>&1
  echo "$tool rc $? $(grep -E '^\[  PASSED' $OUT/$tool.log) $(tail -n 1 $OUT/$tool.log)"
done
for round in 1 2; do
  /tmp/tr 1 2112 7168 sw16x64x256 parallel 2 - 2 > $OUT/trace_r$round.txt 2>&1
  grep -E "per launch|stores drained" $OUT/trace_r$round.txt | sed 's/sm90_bf16.*graph of 40: //'
  for v in old new; do
    /tmp/gg_$v --suites splitk,llm --max-m 32 --dtypes bf16 --no-peak --out $OUT/${v}_r$round \
      --backends cublaslt,sm90 > $OUT/${v}_r$round.log 2>&1; echo "$v round $round rc $?"
  done
done
cd $OUT && tar czf results11.tgz old_r* new_r* trace_r* gtest.log memcheck.log racecheck.log && ls
