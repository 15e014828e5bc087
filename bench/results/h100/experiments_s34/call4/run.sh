#!/usr/bin/env bash
# Session 34, call 4: (1) the sustained mode reporting the mean over its segments: the same
# duplicate-name check as call 3 (cublaslt / cublaslt+nopdl, sm90 / sm90+nopdl), two rounds of
# turns and four; (2) the graph bench (issue 4) on this machine, whole.
set -uo pipefail
B=build-probe/s34c
find $B -name '*.gz' -exec gunzip -f {} +; chmod +x $B/bench/*
o=$OUT/call4; mkdir -p $o
for s in 4096x4096x4096 6144x6144x6144 4096x8192x8192; do
  for rounds in 2 4; do
    $B/bench/graphgemm_bench --shape $s --dtypes bf16 --no-peak --backends cublaslt,sm90,sm90+nopdl,cublaslt+nopdl \
      --sustain-ms 500 --sustain-rounds $rounds --out $o/dup_${s}_r$rounds > $o/dup_${s}_r$rounds.log 2>&1
    echo "dup $s rounds $rounds rc=$?"
  done
done
t0=$SECONDS
timeout 420 $B/bench/graphgemm_graph_bench --out $o/graph > $o/graph.log 2>&1
echo "graph bench rc=$? $((SECONDS-t0)) s"
grep -E "^Goals|ours \(graph::KernelNode\)|plain replay" $o/graph/graph_bench.md | cut -c1-200
cd $OUT && tar czf call4.tgz call4 && rm -rf call4
