#!/usr/bin/env bash
# Session 27, call 7: the pair tiles (128x128 / 128x112 in 2x1 clusters sharing B, B N x K) in the
# library (build-probe/s27b), taken by choose_kernel's pair rule where automatic had the 128x128 tile,
# M spans two 128-row tiles and K >= 8192 (session 26, forced: deepseek_v3.c M = 256 -8%,
# llama3_70b.down / .o M = 256 -1 to -5%). sm90_gemm_check on the new instances; the GPU tests; then
# llm M = 128 / 256 with automatic beside the old choice forced by name (the 128x128 tile, unsplit)
# and cuBLASLt, ROUNDS rounds.
B=${BUILD:-build-probe/s27b}; ROUNDS=${ROUNDS:-2}
for f in $B/bench/graphgemm_bench $B/tools/sm90_gemm_check $B/tests/graphgemm_gpu_tests; do
  [ -f $f.gz ] && gunzip -f $f.gz; chmod +x $f
done
mkdir -p $OUT/p
for flt in 128x112x64_s6_c2x1 128x128x64_s6_c2x1_bk; do
  timeout 200 $B/tools/sm90_gemm_check --filter=$flt > $OUT/p/check_$flt.log 2>&1
  echo "check $flt rc=$? $(grep -c FAIL $OUT/p/check_$flt.log) FAIL lines; $(tail -1 $OUT/p/check_$flt.log)"
done
timeout 300 $B/tests/graphgemm_gpu_tests > $OUT/p/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/p/gpu_tests.log | tr '\n' ' ')"
ARGS="--suites llm --min-m 128 --max-m 256 --dtypes bf16 --no-peak --backends cublaslt,sm90,sm90=sm90_bf16_bf16_128x128x64_s6_c1x1_bk:none"
for r in $(seq 1 $ROUNDS); do
  timeout 250 $B/bench/graphgemm_bench $ARGS --out $OUT/p/r$r > $OUT/p/r$r.log 2>&1
  echo "round $r rc=$?"
done
cd $OUT && tar czf p.tgz p && rm -rf p
