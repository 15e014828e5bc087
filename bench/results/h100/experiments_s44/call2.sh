#!/usr/bin/env bash
# Session 44, call 2: as call 1, the wide tile with two consumer warpgroups (m64n128 on 128 tokens each)
# instead of one m64n256 (call 1): forced beside
# automatic (with its rule) and cuBLASLt over shapes_wide.json, both B layouts, one run each; then
# the GPU tests (the new tile in Sm90.SwapABKernels) and memcheck on the swap-AB tests. The bench
# (B) and the GPU tests (T) travel in two packs (the two do not fit one call's 64 MiB with the tree):
# run with B set, then with T set.
set -u
B=${B:-}
T=${T:-}
if [ -n "$B" ]; then
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
f=$B/bench/graphgemm_bench
SH=bench/results/h100/experiments_s44/shapes_wide.json
for L in kn nk; do
  s=$([ $L = kn ] && echo bn || echo bk)
  S="cublaslt,sm90,sm90=sm90_bf16_bf16_256x64x64_s5_c1x1_sw_${s}:none,sm90=sm90_bf16_bf16_128x192x64_s4_c1x1_${s}:none"
  S="$S,sm90=sm90_bf16_bf16_128x128x64_s6_c1x1_${s}:none"
  timeout 150 $f --shapes $SH --suites wide --dtypes bf16 --b-layout $L --no-peak --backends "$S" --out $OUT/$L > $OUT/$L.log 2>&1; echo "$L rc=$?"
done
fi
if [ -n "$T" ]; then
[ -x $T/tests/graphgemm_gpu_tests ] || tools/unpack_prebuilt.sh $T
timeout 240 $T/tests/graphgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo "gpu tests rc=$?"; tail -3 $OUT/gpu_tests.log
timeout 150 compute-sanitizer --tool memcheck $T/tests/graphgemm_gpu_tests --gtest_filter='Sm90.SwapABKernels' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -2 $OUT/memcheck.log
fi
[ -n "$B" ] && for L in kn nk; do echo "== $L"; python3 bench/results/h100/experiments_s44/us_table.py $OUT/$L/*.json; done
