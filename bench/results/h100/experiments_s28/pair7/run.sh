#!/usr/bin/env bash
# Session 28, call 1: the pair tile 128x112 in 2x1 clusters with a 7th stage (cuBLASLt's own M = 256
# configuration: nvjet 112x128_64x7_2x1, 231.7 KB of shared memory against our 218.2 KB in 6 stages;
# session 27's ncu: our consumers starve with DRAM at 72% of peak against its 79%). The 7th stage fits
# with one D staging buffer per consumer warpgroup and the mbarriers in the base's alignment pad
# (SmemCarve). Experiment build build-probe/s28a (the s7 instances beside the s6 ones; automatic
# unchanged). sm90_gemm_check on both 128x112 pair families, the GPU tests, then llm M = 256 with the
# two forced beside automatic and cuBLASLt, ROUNDS rounds.
B=${BUILD:-build-probe/s28a}; ROUNDS=${ROUNDS:-2}
for f in $B/bench/graphgemm_bench $B/tools/sm90_gemm_check $B/tests/graphgemm_gpu_tests; do
  [ -f $f.gz ] && gunzip -f $f.gz; chmod +x $f
done
mkdir -p $OUT/p
for flt in 128x112x64_s7_c2x1 128x112x64_s6_c2x1 128x256x64_s4_c1x1_bk; do
  timeout 200 $B/tools/sm90_gemm_check --filter=$flt > $OUT/p/check_$flt.log 2>&1
  echo "check $flt rc=$? $(grep -c FAIL $OUT/p/check_$flt.log) FAIL lines; $(tail -1 $OUT/p/check_$flt.log)"
done
timeout 300 $B/tests/graphgemm_gpu_tests > $OUT/p/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/p/gpu_tests.log | tr '\n' ' ')"
grep -E '^\[  FAILED' $OUT/p/gpu_tests.log | head
ARGS="--suites llm --min-m 256 --max-m 256 --dtypes bf16 --no-peak --backends cublaslt,sm90"
ARGS="$ARGS,sm90=sm90_bf16_bf16_128x112x64_s6_c2x1_bk:none,sm90=sm90_bf16_bf16_128x112x64_s7_c2x1_bk:none"
for r in $(seq 1 $ROUNDS); do
  timeout 250 $B/bench/graphgemm_bench $ARGS --out $OUT/p/r$r > $OUT/p/r$r.log 2>&1
  echo "round $r rc=$?"
  python3 - $OUT/p/r$r/gemm_bf16.json <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
s6 = "sm90=sm90_bf16_bf16_128x112x64_s6_c2x1_bk:none"; s7 = s6.replace("_s6_", "_s7_")
for r in rows:
    u = r["us"]
    print(f"{r['name']:18s} {r['M']}x{r['N']}x{r['K']:<6} lt {u['cublaslt']:7.2f} auto {u['sm90']:7.2f} s6 {u[s6]:7.2f} s7 {u[s7]:7.2f} s7/s6 {u[s7]/u[s6]:.3f}")
PY
done
cd $OUT && tar czf p.tgz p && rm -rf p
