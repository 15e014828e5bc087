#!/usr/bin/env bash
# Session 16 experiment (issue 3): mbarrier.try_wait with a 10 ms suspend-time hint in the library
# (new) against 018614e's kernels (old): square up to 12288^3 and llm M in {1024, 4096}, each binary
# with cuBLASLt in its own run, alternating, two rounds; ratio cuBLASLt / ours per run.
set -u
d=build-probe/s16g
find $d -name '*.gz' -exec gunzip -f {} +; chmod +x $d/*/*
t0=$SECONDS
timeout 200 $d/new/graphgemm_gpu_tests > $OUT/gtest.log 2>&1; echo "gtest rc $? ($((SECONDS - t0)) s)"; grep -E "^\[  (PASSED|FAILED)" $OUT/gtest.log
timeout 150 $d/new/sm90_gemm_check --quick > $OUT/check.log 2>&1; echo "check rc $? ($((SECONDS - t0)) s)"; tail -n 1 $OUT/check.log
for r in 1 2; do for v in new old; do
  $d/$v/graphgemm_bench --shapes $d/shapes.json --suites square,llm --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/${v}$r > $OUT/${v}$r.log 2>&1 || echo "bench $v$r failed"
done; done
python3 - $OUT <<'PY'
import json, sys, math, os
o = sys.argv[1]
runs = {f"{v}{r}": json.load(open(f"{o}/{v}{r}/gemm_bf16.json"))['rows'] for r in (1, 2) for v in ('new', 'old')}
def ratio(row): return row['us']['cublaslt'] / row['us']['sm90']
keys = [(x['suite'], x['name'], x['M']) for x in runs['new1']]
g = {k: {} for k in runs}
for i, key in enumerate(keys):
    rs = {k: ratio(runs[k][i]) for k in runs}
    print(f"{key[1]:>18} M={key[2]:>5} " + ' '.join(f"{k}:{v:.3f}" for k, v in rs.items()))
    for k, v in rs.items(): g[k].setdefault(key[0], []).append(v)
for k in runs:
    print(k, ' '.join(f"{s}:{math.exp(sum(map(math.log, v)) / len(v)):.4f}" for s, v in g[k].items()))
PY
cd $OUT && tar czf s16g.tgz new1 new2 old1 old2 gtest.log check.log *.log 2>/dev/null; rm -rf new1 new2 old1 old2 new?.log old?.log
