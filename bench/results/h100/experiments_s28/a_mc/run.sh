#!/usr/bin/env bash
# Session 28, call 3: cuBLASLt's M = 256 kernel read from its SASS (call 2) is 128x112 (our M x N)
# in clusters of two N tiles sharing the ACTIVATIONS (A) by multicast, each CTA loading its own
# 112-row weight (B) box: our "c1x2", not the pair tiles' B multicast (c2x1) that session 26 took
# it for. Experiment build build-probe/s28b: 128x112 c1x2 in 6 and 7 stages (the 7th with one D
# staging buffer per warpgroup and the barriers in the alignment pad) beside HEAD's instances.
# sm90_gemm_check on the new instances, GPU tests, then llm M = 256 with the pair tile and both
# c1x2 forced beside automatic and cuBLASLt, ROUNDS rounds.
B=${BUILD:-build-probe/s28b}; ROUNDS=${ROUNDS:-2}
for f in $B/bench/graphgemm_bench $B/tools/sm90_gemm_check $B/tests/graphgemm_gpu_tests; do
  [ -f $f.gz ] && gunzip -f $f.gz; chmod +x $f
done
mkdir -p $OUT/p
for flt in 128x112x64_s6_c1x2 128x112x64_s7_c1x2; do
  timeout 200 $B/tools/sm90_gemm_check --filter=$flt > $OUT/p/check_$flt.log 2>&1
  echo "check $flt rc=$? $(grep -c FAIL $OUT/p/check_$flt.log) FAIL lines; $(tail -1 $OUT/p/check_$flt.log)"
done
timeout 300 $B/tests/graphgemm_gpu_tests > $OUT/p/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/p/gpu_tests.log | tr '\n' ' ')"
grep -E '^\[  FAILED' $OUT/p/gpu_tests.log | head
P=sm90=sm90_bf16_bf16_128x112x64_s6_c2x1_bk:none
C6=sm90=sm90_bf16_bf16_128x112x64_s6_c1x2_bk:none
C7=sm90=sm90_bf16_bf16_128x112x64_s7_c1x2_bk:none
for r in $(seq 1 $ROUNDS); do
  timeout 250 $B/bench/graphgemm_bench --suites llm --min-m 256 --max-m 256 --dtypes bf16 --no-peak \
    --backends cublaslt,sm90,$P,$C6,$C7 --out $OUT/p/r$r > $OUT/p/r$r.log 2>&1
  echo "round $r rc=$?"
  python3 - $OUT/p/r$r/gemm_bf16.json <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
P = "sm90=sm90_bf16_bf16_128x112x64_s6_c2x1_bk:none"; C6 = P.replace("c2x1", "c1x2"); C7 = C6.replace("_s6_", "_s7_")
for r in rows:
    u = r["us"]
    print(f"{r['name']:18s} {r['M']}x{r['N']}x{r['K']:<6} lt {u['cublaslt']:7.2f} auto {u['sm90']:7.2f} pair {u[P]:7.2f} "
          f"c1x2s6 {u[C6]:7.2f} c1x2s7 {u[C7]:7.2f}  lt/c6 {u['cublaslt']/u[C6]:.3f} lt/c7 {u['cublaslt']/u[C7]:.3f} lt/auto {u['cublaslt']/u['sm90']:.3f}")
PY
done
cd $OUT && tar czf p.tgz p && rm -rf p
