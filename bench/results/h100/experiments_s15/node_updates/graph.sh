#!/usr/bin/env bash
# Session 15 (issue 4): node updates through the driver's cuGraphExecKernelNodeSetParams with the
# kernel resolved at recording. GPU graph tests on the new build; then the host bench and the graph
# bench, new and old (5dfb8d5's graph code) alternating, two rounds each.
set -u
d=build-probe/s15d
find $d -name '*.gz' -exec gunzip -f {} +; chmod +x $d/*/*
timeout 300 $d/tests/graphgemm_gpu_tests --gtest_filter='Graph*:*Capture*:*KernelNode*:Sm90SplitK.SwapABClusterSumsBitwiseAndOneGraphNode' > $OUT/gtest_graph.log 2>&1; echo "graph gtest rc $?"; grep -E "PASSED|FAILED|tests ran" $OUT/gtest_graph.log | tail -3
for r in 1 2; do
  for v in new old; do
    b=$d/bench; [ $v = old ] && b=$d/old
    $b/graphgemm_host_bench --out $OUT/host_$v$r > $OUT/host_$v$r.log 2>&1 || echo "host bench $v$r failed"
    $b/graphgemm_graph_bench --out $OUT/graph_$v$r > $OUT/graph_$v$r.log 2>&1 || echo "graph bench $v$r failed"
  done
done
for r in 1 2; do for v in new old; do
  echo "== $v$r"; python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print({k: round(v, 3) for k, v in d['us'].items() if 'update' in k})" $OUT/host_$v$r/host_overhead.json
  grep -E "^\| (ours|combined|probe: combined, driver|plain replay)" $OUT/graph_$v$r/graph_bench.md | head -4
  grep -E "^Goals" $OUT/graph_$v$r/graph_bench.md
done; done
cd $OUT && tar czf graph.tgz host_* graph_* gtest_graph.log && rm -rf host_new? host_old? graph_new? graph_old?
