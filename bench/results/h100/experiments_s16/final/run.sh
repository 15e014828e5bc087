#!/usr/bin/env bash
# Session 16 final call (the committed library, 5e73887's, with this session's bench and test
# changes): GPU tests, host bench, graph bench (approaches taking turns), and a look at why ncu
# profiled no GEMM kernel of the bench in session 15. Only the tarball and summary stay in $OUT.
set -u
d=build-probe/s16c
find $d -name '*.gz' -exec gunzip -f {} +; chmod +x $d/*/*
w=$(mktemp -d)
t0=$SECONDS
timeout 300 $d/tests/graphgemm_gpu_tests > $w/gtest.log 2>&1; echo "gtest rc $? ($((SECONDS - t0)) s)"; grep -E "^\[  (PASSED|FAILED|SKIPPED) \]" $w/gtest.log | head -6
$d/bench/graphgemm_host_bench --out $w/results > $w/host.log 2>&1 || echo "host bench failed"
$d/bench/graphgemm_graph_bench --out $w/results > $w/graph.log 2>&1 || echo "graph bench failed"
grep -E "update|Encode" $w/host.log
grep -E "^\| (ours|combined|plain)" $w/results/graph_bench.md | head -3 | cut -c1-100
grep -E "^Goals" $w/results/graph_bench.md | sed 's/Goals (issue 4), //'
# ncu: the bench's kernels, filtered as tools/diag/ncu_shapes.sh does, then unfiltered
timeout 150 ncu --kernel-name regex:'gemm|nvjet|splitK|reduce' --launch-skip 0 --launch-count 4 --metrics gpu__time_duration.sum \
  $d/bench/graphgemm_bench --shape 256x6144x4096 --backends cublaslt,sm90 --dtypes bf16 --batches 1 --no-peak --out $w/ncu_bench > $w/ncu_filtered.log 2>&1; echo "ncu filtered rc $?"
timeout 120 ncu --launch-count 12 --metrics gpu__time_duration.sum \
  $d/bench/graphgemm_bench --shape 256x6144x4096 --backends cublaslt,sm90 --dtypes bf16 --batches 1 --no-peak --out $w/ncu_bench2 > $w/ncu_all.log 2>&1; echo "ncu all rc $?"
grep -E "==PROF==|==WARNING==|==ERROR==|\(\(|^  [a-zA-Z_].*\(|Duration" $w/ncu_filtered.log | head -20
grep -E "==PROF==|==WARNING==|==ERROR==|^  [a-zA-Z_0-9:<>]+.*\(" $w/ncu_all.log | head -30
cd $w && tar czf $OUT/s16c.tgz . 
