#!/usr/bin/env bash
# Session 28, final call: the 7-stage pair tile (128x112 c2x1 s7, one D staging buffer per consumer
# warpgroup, barriers in the alignment pad) in place of the 6-stage one, build-probe/s28d. GPU tests,
# sm90_gemm_check on every instance, memcheck on the every-instance and partial-chunk tests, racecheck
# on the every-instance test; then llm M = 256 with HEAD's bench (build-probe/s27b) and this one
# alternating, ROUNDS rounds, this one with the 7-stage pair forced beside automatic on every shape.
# PART=tests or PART=bench runs one half (the carry limit holds one build's three binaries, or the
# two benches).
N=${BUILD:-build-probe/s28d}; O=build-probe/s27b; ROUNDS=${ROUNDS:-2}
for f in $N/bench/graphgemm_bench $N/tools/sm90_gemm_check $N/tests/graphgemm_gpu_tests $O/bench/graphgemm_bench; do
  [ -f $f.gz ] && gunzip -f $f.gz; [ -f $f ] && chmod +x $f
done
mkdir -p $OUT/f
if [ "${PART:-tests}" != bench ]; then
T=$N/tests/graphgemm_gpu_tests
timeout 300 $T > $OUT/f/gpu_tests.log 2>&1; echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/f/gpu_tests.log | tr '\n' ' ')"
timeout 300 $N/tools/sm90_gemm_check > $OUT/f/check.log 2>&1; echo "check rc=$? $(grep -c FAIL $OUT/f/check.log) FAIL lines; $(tail -1 $OUT/f/check.log)"
timeout 250 compute-sanitizer --tool memcheck $T --gtest_filter='Sm90.PartialChunkTilesEveryEpilogueAndOutputType:Sm90.EveryKernelInstance' > $OUT/f/memcheck.log 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $OUT/f/memcheck.log | tr '\n' ' ')"
timeout 200 compute-sanitizer --tool racecheck $T --gtest_filter='Sm90.EveryKernelInstance' > $OUT/f/racecheck.log 2>&1
echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $OUT/f/racecheck.log | tr '\n' ' ')"
fi
if [ "${PART:-bench}" != tests ]; then
A="--suites llm --min-m 256 --max-m 256 --dtypes bf16 --no-peak"
for r in $(seq 1 $ROUNDS); do
  timeout 200 $O/bench/graphgemm_bench $A --backends cublaslt,sm90 --out $OUT/f/old$r > $OUT/f/old$r.log 2>&1; echo "old $r rc=$?"
  timeout 200 $N/bench/graphgemm_bench $A --backends cublaslt,sm90,sm90=sm90_bf16_bf16_128x112x64_s7_c2x1_bk:none --out $OUT/f/new$r > $OUT/f/new$r.log 2>&1; echo "new $r rc=$?"
  python3 - $OUT/f/old$r/gemm_bf16.json $OUT/f/new$r/gemm_bf16.json <<'PY'
import json, sys
old = {(r["name"], r["M"]): r for r in json.load(open(sys.argv[1]))["rows"]}
P = "sm90=sm90_bf16_bf16_128x112x64_s7_c2x1_bk:none"
for r in json.load(open(sys.argv[2]))["rows"]:
    o = old[(r["name"], r["M"])]; u = r["us"]; ou = o["us"]
    print(f"{r['name']:18s} {r['M']}x{r['N']}x{r['K']:<6} old: lt {ou['cublaslt']:7.2f} auto {ou['sm90']:7.2f} ({ou['cublaslt']/ou['sm90']:.3f})"
          f"  new: lt {u['cublaslt']:7.2f} auto {u['sm90']:7.2f} ({u['cublaslt']/u['sm90']:.3f}) pair7 {u[P]:7.2f} ({u['cublaslt']/u[P]:.3f})")
PY
done
fi
cd $OUT && tar czf f_${PART:-all}.tgz f && rm -rf f
