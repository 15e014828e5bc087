#!/usr/bin/env bash
# Session 13 A/B: split-K counters zeroed by a 1-CTA kernel + programmatic GEMM (new) vs a memset node (old, s12f = 0b00a8b); alternating rounds.
set -u
d=build-probe/s13
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
# the splitk table, new binary only (as device_run.sh's splitk step)
modes=cublaslt,sm90:none,sm90
for s in 2 4 8 16 auto; do modes+=",sm90:serial:$s"; done
for s in 2 4 8 16 32 64 auto; do modes+=",sm90:parallel:$s:c1"; done
for s in 2 4 8; do modes+=",sm90:parallel:$s:c$s"; done
for s in 16 32 auto; do modes+=",sm90:parallel:$s:c8"; done
$d/bench/graphgemm_bench --suites splitk --dtypes bf16 --backends "$modes" --no-peak --out $OUT/splitk > $OUT/splitk.log 2>&1 || echo "splitk table failed"
python3 - $OUT/splitk/gemm_bf16.json <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
for r in d['rows']:
    us=r['us']; c=us['cublaslt']
    best=min((u,b) for b,u in us.items() if u and b.startswith('sm90'))
    print(r['M'],r['N'],r['K'],f"cublaslt {c:.1f} auto {us['sm90']:.1f} none {us['sm90:none']:.1f} best {best[1]} {best[0]:.1f}")
PY
# llm M <= 256 against explicit parallel splits through the workspace (new binary): for the model refit
$d/bench/graphgemm_bench --suites llm --max-m 256 --dtypes bf16 --backends cublaslt,sm90,sm90:none,sm90:parallel:2:c1,sm90:parallel:4:c1,sm90:parallel:8:c1 --no-peak --out $OUT/llmsplit > $OUT/llmsplit.log 2>&1 || echo "llm split table failed"
python3 - $OUT/llmsplit/gemm_bf16.json <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
for r in d['rows']:
    us=r['us']
    best=min((u,b) for b,u in us.items() if u and b.startswith('sm90'))
    if best[1] in ('sm90','sm90:none') or best[0] > 0.97*us['sm90']: continue
    print(r['name'],r['M'],r['N'],r['K'],f"cublaslt {us['cublaslt']:.1f} auto {us['sm90']:.1f} best {best[1]} {best[0]:.1f}")
PY
cd $OUT && tar czf tables.tgz new1 new2 old1 old2 splitk llmsplit && rm -rf new1 new2 old1 old2 splitk llmsplit
