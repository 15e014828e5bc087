#!/usr/bin/env bash
# Session 16 experiment (issue 3): cuBLASLt's configuration for llama3_8b.qkv M = 256 in our
# kernel: the 128x96 tile (B N x K) in 2x1 clusters (B multicast), beside 128x96 alone and the
# automatic choice. Check tool on the new instances, SASS main loops, then the llm M <= 256 suite
# with the tiles forced, two rounds.
set -u
d=build-probe/s16e
find $d -name '*.gz' -exec gunzip -f {} +; chmod +x $d/*
timeout 200 $d/sm90_gemm_check --quick --filter=128x96x64 > $OUT/check.log 2>&1; echo "check rc $?"; tail -n 3 $OUT/check.log
python3 tools/diag/sass_mainloop.py $d/graphgemm_bench > $OUT/sass.log 2>&1; echo "sass rc $?"; grep -E "128x96|FAIL|ok" $OUT/sass.log | head -8
t1=sm90=sm90_bf16_bf16_128x96x64_s6_c1x1_bk; t2=sm90=sm90_bf16_bf16_128x96x64_s6_c2x1_bk; t0=sm90=sm90_bf16_bf16_128x128x64_s6_c1x1_bk
for r in 1 2; do
  $d/graphgemm_bench --suites llm --max-m 256 --dtypes bf16 --no-peak --backends cublaslt,sm90,$t0,$t1,$t2 --out $OUT/r$r > $OUT/r$r.log 2>&1 || echo "bench $r failed"
done
for r in 1 2; do python3 - $OUT/r$r/gemm_bf16.json r$r <<'PY'
import json, sys, math
d = json.load(open(sys.argv[1]))
keys = None
g = {}
for x in d['rows']:
    us = x['us']
    if keys is None: keys = list(us)
    if x['M'] < 128: continue
    best = min(us[k] for k in keys if k != 'cublaslt')
    print(sys.argv[2], f"{x['name']:>16} M={x['M']:>3}", ' '.join(f"{'_'.join(k.split('_')[-4:-1:2]) if '=' in k else k}:{us['cublaslt']/us[k]:.3f}" for k in keys if k != 'cublaslt'))
    for k in keys: g.setdefault(k, []).append(us['cublaslt'] / us[k])
print(sys.argv[2], 'geomean M in {128, 256}:', ' '.join(f"{k}:{math.exp(sum(map(math.log, v)) / len(v)):.4f}" for k, v in g.items() if k != 'cublaslt'))
PY
done
cd $OUT && tar czf s16e.tgz r1 r2 r1.log r2.log check.log sass.log && rm -rf r1 r2 r1.log r2.log
