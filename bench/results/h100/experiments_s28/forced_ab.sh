#!/usr/bin/env bash
# Session 28's device calls with forced kernels (pair7/run.sh, pair7/run2.sh, a_mc/run.sh call this):
# sm90_gemm_check on each CHECKS filter, the GPU tests, then ROUNDS rounds of the llm suite at
# M = MIN_M..MAX_M with cuBLASLt, automatic and each FORCED kernel (unsplit), and per shape a table:
# every column's µs and each forced kernel's time against the first one. Results in $OUT/$TAR.tgz.
#   BUILD=build-probe/x CHECKS="f1 f2" FORCED="kernel1 kernel2" TAR=p bash forced_ab.sh
B=${BUILD:?}; ROUNDS=${ROUNDS:-2}; TAR=${TAR:-p}
for f in $B/bench/graphgemm_bench $B/tools/sm90_gemm_check $B/tests/graphgemm_gpu_tests; do
  [ -f $f.gz ] && gunzip -f $f.gz; chmod +x $f
done
mkdir -p $OUT/p
for flt in $CHECKS; do
  timeout 200 $B/tools/sm90_gemm_check --filter=$flt > $OUT/p/check_$flt.log 2>&1
  echo "check $flt rc=$? $(grep -c FAIL $OUT/p/check_$flt.log) FAIL lines; $(tail -1 $OUT/p/check_$flt.log)"
done
timeout 300 $B/tests/graphgemm_gpu_tests > $OUT/p/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/p/gpu_tests.log | tr '\n' ' ')"
grep -E '^\[  FAILED' $OUT/p/gpu_tests.log | head
backends=cublaslt,sm90
for k in $FORCED; do backends="$backends,sm90=$k:none"; done
for r in $(seq 1 $ROUNDS); do
  timeout 250 $B/bench/graphgemm_bench --suites llm --min-m ${MIN_M:-256} --max-m ${MAX_M:-256} --dtypes bf16 --no-peak \
    --backends $backends --out $OUT/p/r$r > $OUT/p/r$r.log 2>&1
  echo "round $r rc=$?"
  python3 - $OUT/p/r$r/gemm_bf16.json $FORCED <<'PY'
import json, sys
forced = [f"sm90={k}:none" for k in sys.argv[2:]]
short = lambda k: k.split("x64_")[1].replace("_bk:none", "")  # e.g. s7_c2x1
for r in json.load(open(sys.argv[1]))["rows"]:
    u = r["us"]
    cols = " ".join(f"{short(k)} {u[k]:7.2f}" for k in forced)
    rel = " ".join(f"{short(k)}/{short(forced[0])} {u[k] / u[forced[0]]:.3f}" for k in forced[1:])
    print(f"{r['name']:18s} {r['M']}x{r['N']}x{r['K']:<6} lt {u['cublaslt']:7.2f} auto {u['sm90']:7.2f} {cols}  {rel} lt/auto {u['cublaslt'] / u['sm90']:.3f}")
PY
done
cd $OUT && tar czf $TAR.tgz p && rm -rf p
