#!/usr/bin/env bash
# Session 63, call C2: callC.sh cut to the device time left (~4 min): the check on the c2x2
# instances (and their GPU tests where the pack has them), square in turns and sustained (250 ms turns), llm M >= 4096 in turns; cuBLASLt beside
# 128x256 c2x1 and c2x2 forced unsplit.
set -u
B=${B:-build-probe/s63c}
source tools/device_call_env.sh
timeout 60 $B/tools/sm90_gemm_check --quick --filter=_c2x2_ > $OUT/check_c2x2.log 2>&1; echo "check c2x2 rc=$? $(tail -n 1 $OUT/check_c2x2.log)"
grep -iE "fail|error" $OUT/check_c2x2.log | head -n 5
if [ -f $B/tests/graphgemm_gpu_tests.xz ] || [ -x $T ]; then  # (a pack with the GPU tests)
  timeout 120 $T --gtest_filter='Sm90.QuadCluster*:Sm90.LastNTile*:Sm90.EveryKernelFits*' > $OUT/gtest_c2x2.log 2>&1; echo "gtest rc=$? $(tail -n 1 $OUT/gtest_c2x2.log)"
fi
C21=sm90=${P}128x256x64_s4_c2x1_bk:none; C22=sm90=${P}128x256x64_s4_c2x2_bk:none
timeout 40 $X --dtypes bf16 --suites square --backends cublaslt,$C21,$C22 --out $OUT/quad_t > $OUT/quad_t.log 2>&1; echo "quad turns rc=$?"
timeout 60 $X --dtypes bf16 --suites square --sustain-ms 250 --backends cublaslt,$C21,$C22 --out $OUT/quad_sus > $OUT/quad_sus.log 2>&1; echo "quad sustained rc=$?"
timeout 50 $X --dtypes bf16 --suites llm --min-m 4096 --backends cublaslt,$C21,$C22 --out $OUT/quad_llm > $OUT/quad_llm.log 2>&1; echo "quad llm rc=$?"
python3 - $OUT/quad_t/gemm_bf16.json $OUT/quad_sus/gemm_bf16.json $OUT/quad_llm/gemm_bf16.json <<'PY'
import json, math, sys
for path in sys.argv[1:]:
    try: rows = json.load(open(path))["rows"]
    except Exception as e: print(path, "missing", e); continue
    keys = list(rows[0]["us"])
    c21 = [k for k in keys if "c2x1" in k][0]; c22 = [k for k in keys if "c2x2" in k][0]
    print(path.split("/")[-2]); v = []
    for r in rows:
        u = r["us"]
        if not u[c21] or not u[c22]: print("  n/a", r["name"], r["M"], r["config"][c22][:90]); continue
        v.append((u[c22] / u[c21], u["cublaslt"] / u[c22], u["cublaslt"] / u[c21]))
        print(f"  {r['name']:18s} {r['M']:6d} {r['N']:6d} {r['K']:6d}  c2x2/c2x1 {v[-1][0]:.3f}  cublaslt/c2x2 {v[-1][1]:.3f}  cublaslt/c2x1 {v[-1][2]:.3f}")
    gm = lambda i: math.exp(sum(math.log(x[i]) for x in v) / len(v))
    if v: print(f"  geomean c2x2/c2x1 {gm(0):.3f}, cublaslt/c2x2 {gm(1):.3f}, cublaslt/c2x1 {gm(2):.3f} (n={len(v)})")
PY
(cd $OUT && tar czf callC2.tgz quad_t quad_sus quad_llm *.log && rm -rf quad_t quad_sus quad_llm quad_t.log quad_sus.log quad_llm.log)
