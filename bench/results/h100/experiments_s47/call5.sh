#!/usr/bin/env bash
# Session 47, call 5: the full graph benchmark (tiny workflow; MLP at hidden 512 / 1024 / 4096, PDL
# off and on) on the final build (s47b, the step-only chain node update): committed as
# bench/results/h100/graph_bench.*.
set -u
B=${B:?}
[ -x $B/bench/graphgemm_graph_bench ] || tools/unpack_prebuilt.sh $B
timeout 560 $B/bench/graphgemm_graph_bench --out $OUT > $OUT/log.txt 2>&1; echo "graph_bench rc=$?"
grep -E "^Goal|^One chain node" $OUT/graph_bench.md | cut -c1-400
