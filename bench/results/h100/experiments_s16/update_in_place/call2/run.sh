#!/usr/bin/env bash
# Session 16: GPU tests of the new build (graph node updates in place), the host bench new / old
# (5e73887's library) alternating three rounds, and the graph bench (approaches interleaved) twice.
set -u
d=build-probe/s16b
find $d -name '*.gz' -exec gunzip -f {} +; chmod +x $d/*/*
t0=$SECONDS
timeout 420 $d/tests/graphgemm_gpu_tests > $OUT/gtest.log 2>&1; echo "gtest rc $? ($((SECONDS - t0)) s)"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests ran" $OUT/gtest.log | tail -4
for r in 1 2 3; do for v in new old; do
  $d/$v/graphgemm_host_bench --out $OUT/host_$v$r > $OUT/host_$v$r.log 2>&1 || echo "host bench $v$r failed"
done; done
for r in 1 2; do $d/new/graphgemm_graph_bench --out $OUT/graph_$r > $OUT/graph_$r.log 2>&1 || echo "graph bench $r failed"; done
for r in 1 2 3; do for v in new old; do echo "== host $v$r"; grep -E "update|Encode" $OUT/host_$v$r.log; done; done
for r in 1 2; do echo "== graph $r"; grep -E "^\| (ours|combined|plain)" $OUT/graph_$r/graph_bench.md | head -3 | cut -c1-100; grep -E "^Goals" $OUT/graph_$r/graph_bench.md | sed 's/Goals (issue 4), //'; done
cd $OUT && tar czf s16b.tgz host_* graph_* gtest.log && rm -rf host_new? host_old? graph_?
