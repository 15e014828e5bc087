#!/usr/bin/env bash
# Session 47, calls 2-3: graph_bench --only mlp, hidden 4096 and 512, PDL off and on, twice, with
# one build B: call 2 HEAD's (build-probe/s47base: 1cb4d59), call 3 the step-only chain node update
# (build-probe/s47b), the two calls back to back on one machine (both binaries do not fit one call's
# 64 MiB). What moves: the chain node's update (no table re-encode when the layers are the recorded
# ones); everything else is the same code. Call 3 also traces the hidden-512 chain (chain_trace).
set -u
B=${B:?}
[ -x $B/bench/graphgemm_graph_bench ] || tools/unpack_prebuilt.sh $B
for r in 1 2; do
  mkdir -p $OUT/r$r
  timeout 200 $B/bench/graphgemm_graph_bench --only mlp --hidden 4096,512 --mlp-pdl off,on --out $OUT/r$r \
    > $OUT/r$r/log.txt 2>&1; echo "r$r rc=$?"
done
if [ -x $B/tools/chain_trace ]; then
  for m in 256 64 1; do timeout 60 $B/tools/chain_trace 512 $m 64x64 > $OUT/trace512_m$m.txt 2>&1; echo "trace $m rc=$?"; done
fi
cd $OUT && for f in r*/graph_bench.md; do echo "== $f"; grep -E "^## 2|^\| ours, one chain node|^\| recapture-then-update|^\| chain static" $f | cut -c1-220; done
tar czf r.tgz r1 r2 && rm -rf r1 r2
