#!/usr/bin/env bash
# Session 28, call 5: the 7th stage again, with a uniform main loop. Calls 1 and 3 measured the
# 7-stage 128x112 kernels with their consumer main loop off the uniform datapath (R2UR 16 a k-block,
# 108 SASS instructions against 65: one D staging buffer made epi_buf the constant 0 and ptxas moved
# the stage / descriptors into vector registers; found in call 4's ncu, 1.6x the instructions);
# an opaque epi_buf keeps it uniform (tools/diag/sass_mainloop.py: every loop R2UR 0). Build
# build-probe/s28c: 128x112 in 7 stages as the pair (c2x1, B multicast) and as cuBLASLt has it (c1x2,
# A multicast) beside HEAD's. Checks, GPU tests, then llm M = 256 with the three forced beside
# automatic and cuBLASLt, ROUNDS rounds.
B=${BUILD:-build-probe/s28c}; ROUNDS=${ROUNDS:-2}
for f in $B/bench/graphgemm_bench $B/tools/sm90_gemm_check $B/tests/graphgemm_gpu_tests; do
  [ -f $f.gz ] && gunzip -f $f.gz; chmod +x $f
done
mkdir -p $OUT/p
for flt in 128x112x64_s7_c2x1 128x112x64_s7_c1x2; do
  timeout 200 $B/tools/sm90_gemm_check --filter=$flt > $OUT/p/check_$flt.log 2>&1
  echo "check $flt rc=$? $(grep -c FAIL $OUT/p/check_$flt.log) FAIL lines; $(tail -1 $OUT/p/check_$flt.log)"
done
timeout 300 $B/tests/graphgemm_gpu_tests > $OUT/p/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/p/gpu_tests.log | tr '\n' ' ')"
grep -E '^\[  FAILED' $OUT/p/gpu_tests.log | head
P=sm90=sm90_bf16_bf16_128x112x64_s6_c2x1_bk:none
P7=sm90=sm90_bf16_bf16_128x112x64_s7_c2x1_bk:none
C7=sm90=sm90_bf16_bf16_128x112x64_s7_c1x2_bk:none
for r in $(seq 1 $ROUNDS); do
  timeout 250 $B/bench/graphgemm_bench --suites llm --min-m 256 --max-m 256 --dtypes bf16 --no-peak \
    --backends cublaslt,sm90,$P,$P7,$C7 --out $OUT/p/r$r > $OUT/p/r$r.log 2>&1
  echo "round $r rc=$?"
  python3 - $OUT/p/r$r/gemm_bf16.json <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
P = "sm90=sm90_bf16_bf16_128x112x64_s6_c2x1_bk:none"; P7 = P.replace("_s6_", "_s7_"); C7 = P7.replace("c2x1", "c1x2")
for r in rows:
    u = r["us"]
    print(f"{r['name']:18s} {r['M']}x{r['N']}x{r['K']:<6} lt {u['cublaslt']:7.2f} auto {u['sm90']:7.2f} pair6 {u[P]:7.2f} "
          f"pair7 {u[P7]:7.2f} c1x2s7 {u[C7]:7.2f}  p7/p6 {u[P7]/u[P]:.3f} c7/p6 {u[C7]/u[P]:.3f} lt/auto {u['cublaslt']/u['sm90']:.3f}")
PY
done
cd $OUT && tar czf p2.tgz p && rm -rf p
