#!/usr/bin/env bash
# Session 44, call 4 (experiment build s44d / s44u: the wide tile also in 2x1 clusters, its two token
# tiles sharing the weight tile by multicast): the wide tile c1x1 and c2x1 forced beside automatic
# and cuBLASLt on the shapes where its grid fills one wave, both B layouts, two rounds (B set); then
# (T set, a second call) the swap-AB GPU test, memcheck and racecheck on it.
set -u
B=${B:-}
T=${T:-}
if [ -n "$B" ]; then
  [ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
  SH=bench/results/h100/experiments_s44/shapes_wide.json
  for r in 1 2; do for L in kn nk; do
    s=$([ $L = kn ] && echo bn || echo bk)
    S="cublaslt,sm90,sm90=sm90_bf16_bf16_256x64x64_s5_c1x1_sw_${s}:none,sm90=sm90_bf16_bf16_256x64x64_s5_c2x1_sw_${s}:none"
    timeout 120 $B/bench/graphgemm_bench --shapes $SH --suites wide --dtypes bf16 --b-layout $L --no-peak --backends "$S" --out $OUT/${L}_r$r > /dev/null 2>&1; echo "$L r$r rc=$?"
  done; done
  for r in 1 2; do for L in kn nk; do echo "== $L round $r"; python3 bench/results/h100/experiments_s44/us_table.py $OUT/${L}_r$r/*.json; done; done
fi
if [ -n "$T" ]; then
  [ -x $T/tests/graphgemm_gpu_tests ] || tools/unpack_prebuilt.sh $T
  timeout 150 $T/tests/graphgemm_gpu_tests --gtest_brief=1 --gtest_filter='Sm90.SwapAB*:Sm90.EveryKernelFits*' > $OUT/gpu_tests.log 2>&1; echo "gpu tests rc=$?"; tail -3 $OUT/gpu_tests.log
  timeout 200 compute-sanitizer --tool memcheck $T/tests/graphgemm_gpu_tests --gtest_filter='Sm90.SwapABKernels' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -2 $OUT/memcheck.log
  timeout 220 compute-sanitizer --tool racecheck $T/tests/graphgemm_gpu_tests --gtest_filter='Sm90.SwapABKernels' > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"; tail -2 $OUT/racecheck.log
fi
