#!/usr/bin/env bash
# Session 63, call C, on s63c (128x256 in 2x2 clusters, by name only):
# 1. sm90_gemm_check --quick on the 6 c2x2 instances (every epilogue, split-K, stream-K, ragged).
# 2. Turns (square, llm M >= 1024): cuBLASLt, automatic, 128x256 c2x1 and c2x2 forced unsplit.
# 3. Sustained (square, 400 ms turns): cuBLASLt, c2x1, c2x2 forced unsplit.
set -u
B=${B:-build-probe/s63c}
source tools/device_call_env.sh
timeout 200 $B/tools/sm90_gemm_check --quick --filter=_c2x2_ > $OUT/check_c2x2.log 2>&1; echo "check c2x2 rc=$? $(tail -n 1 $OUT/check_c2x2.log)"
grep -iE "fail|error" $OUT/check_c2x2.log | head -n 5
C21=sm90=${P}128x256x64_s4_c2x1_bk:none; C22=sm90=${P}128x256x64_s4_c2x2_bk:none
timeout 200 $X --dtypes bf16 --suites square,llm --min-m 1024 --backends cublaslt,sm90,$C21,$C22 --out $OUT/quad_t > $OUT/quad_t.log 2>&1
echo "quad turns rc=$?"
timeout 150 $X --dtypes bf16 --suites square --sustain-ms 400 --backends cublaslt,$C21,$C22 --out $OUT/quad_sus > $OUT/quad_sus.log 2>&1
echo "quad sustained rc=$?"
grep -E "^\[" $OUT/quad_sus.log
python3 - $OUT/quad_t/gemm_bf16.json $OUT/quad_sus/gemm_bf16.json <<'PY'
import json, math, sys
for path in sys.argv[1:]:
    rows = json.load(open(path))["rows"]
    keys = list(rows[0]["us"])
    c21 = [k for k in keys if "c2x1" in k][0]; c22 = [k for k in keys if "c2x2" in k][0]
    print(path.split("/")[-2])
    groups = {}
    for r in rows:
        u = r["us"]
        if not u[c21] or not u[c22]: print("  n/a", r["name"], r["M"], r["config"][c22][:80]); continue
        g = r["suite"] if r["suite"] == "square" else "llm M>=1024"
        groups.setdefault(g, []).append((u[c22] / u[c21], u["cublaslt"] / u[c22]))
        print(f"  {r['name']:18s} {r['M']:6d} {r['N']:6d} {r['K']:6d}  c2x2/c2x1 {u[c22]/u[c21]:.3f}  cublaslt/c2x2 {u['cublaslt']/u[c22]:.3f}  cublaslt/c2x1 {u['cublaslt']/u[c21]:.3f}")
    for g, v in groups.items():
        gm = lambda i: math.exp(sum(math.log(x[i]) for x in v) / len(v))
        print(f"  {g}: c2x2/c2x1 {gm(0):.3f}, cublaslt/c2x2 {gm(1):.3f} (n={len(v)})")
PY
(cd $OUT && tar czf callC.tgz quad_t quad_sus *.log && rm -rf quad_t quad_sus quad_t.log quad_sus.log)
