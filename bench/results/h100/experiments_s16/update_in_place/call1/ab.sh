#!/usr/bin/env bash
# Session 16 (issue 4): GEMM node updates in place (only changed tensor maps encoded, no launch
# cache). Graph GPU tests on the new build; then the host bench and the graph bench, new and old
# (5e73887's library with this session's host bench rows) alternating, two rounds each.
set -u
d=build-probe/s16a
find $d -name '*.gz' -exec gunzip -f {} +; chmod +x $d/*/*
if [ -x $d/tests/graphgemm_gpu_tests ]; then
  timeout 300 $d/tests/graphgemm_gpu_tests --gtest_filter='Graph*:*Capture*:*KernelNode*' > $OUT/gtest_graph.log 2>&1; echo "graph gtest rc $?"; grep -E "PASSED|FAILED|tests ran" $OUT/gtest_graph.log | tail -3
fi
for r in 1 2; do
  for v in new old; do
    b=$d/new; [ $v = old ] && b=$d/old
    $b/graphgemm_host_bench --out $OUT/host_$v$r > $OUT/host_$v$r.log 2>&1 || echo "host bench $v$r failed"
    $b/graphgemm_graph_bench --out $OUT/graph_$v$r > $OUT/graph_$v$r.log 2>&1 || echo "graph bench $v$r failed"
  done
done
for r in 1 2; do for v in new old; do
  echo "== $v$r"; python3 -c "import json,sys; d=json.load(open(sys.argv[1])); [print(f'  {k:58s} {v:6.3f}') for k, v in d['us'].items() if 'update' in k.lower() or 'encode' in k.lower()]" $OUT/host_$v$r/host_overhead.json
  grep -E "^\| ours \(graph::KernelNode" $OUT/graph_$v$r/graph_bench.md | cut -c1-90
  grep -E "^Goals" $OUT/graph_$v$r/graph_bench.md | sed 's/Goals (issue 4), //' | cut -c1-200
done; done
cd $OUT && tar czf ab.tgz host_* graph_* gtest_graph.log 2>/dev/null && rm -rf host_new? host_old? graph_new? graph_old?
