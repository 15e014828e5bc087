#!/usr/bin/env bash
# Session 48, call 6: the full graph benchmark (tiny workflow; MLP at hidden 512 / 1024 / 4096, PDL
# off and on) on the final build (s48b, the chain's weights loaded ahead of the rows): committed as
# bench/results/h100/graph_bench.*.
set -u
B=${B:?}
[ -x $B/bench/graphgemm_graph_bench ] || tools/unpack_prebuilt.sh $B
timeout 560 $B/bench/graphgemm_graph_bench --out $OUT > $OUT/log.txt 2>&1; echo "graph_bench rc=$?"
grep -E "^Goal|^One chain node" $OUT/graph_bench.md | cut -c1-400
