#!/usr/bin/env bash
# Session 13 A/B 2: split launches through the workspace take PDL on their zeroing kernel (new) vs the zeroing kernel launched normally (old = 37f3c4a); alternating rounds.
set -u
d=build-probe/s13b
find $d -name '*.gz' -exec gunzip -f {} +; chmod +x $d/*/*
timeout 400 $d/tests/graphgemm_gpu_tests 2>&1 | grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests ran|FAILED  \]" | tail -12
timeout 200 $d/tools/sm90_gemm_check 2>&1 | tail -2
ARGS="--suites llm,splitk --max-m 256 --dtypes bf16 --backends cublaslt,sm90 --no-peak"
for r in 1 2; do
  if [ $r = 1 ]; then order="old new"; else order="new old"; fi
  for v in $order; do
    b=$d/bench/graphgemm_bench; [ $v = old ] && b=$d/old/graphgemm_bench
    $b $ARGS --out $OUT/${v}$r > $OUT/${v}$r.log 2>&1 || echo "bench $v$r failed"
  done
done
for r in 1 2; do python3 tools/diag/compare_bench.py $OUT/new$r/gemm_bf16.json $OUT/old$r/gemm_bf16.json --threshold 0.03; done
python3 - $OUT/new1/gemm_bf16.json $OUT/old1/gemm_bf16.json $OUT/new2/gemm_bf16.json $OUT/old2/gemm_bf16.json <<'PY'
import json,sys
for r in (0,2):
    n=json.load(open(sys.argv[1+r]));o=json.load(open(sys.argv[2+r]))
    om={(x['name'],x['M'],x['N'],x['K']):x for x in o['rows']}
    for x in n['rows']:
        y=om[(x['name'],x['M'],x['N'],x['K'])]
        if 'workspace' in x['config']['sm90'] or x['suite']=='splitk':
            print(r//2+1,x['name'],x['M'],x['N'],x['K'],f"new {x['us']['sm90']:.2f} old {y['us']['sm90']:.2f} cublaslt {x['us']['cublaslt']:.2f}/{y['us']['cublaslt']:.2f}", x['config']['sm90'][:100])
PY
cd $OUT && tar czf tables.tgz new1 new2 old1 old2 && rm -rf new1 new2 old1 old2
