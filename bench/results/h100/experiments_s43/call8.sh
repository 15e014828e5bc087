#!/usr/bin/env bash
# Session 43, call 8 (data for the next step, no library change): M = 16 / 32 at long K, both B
# layouts: automatic (swap-AB, split in two in clusters where its rule says) beside its swap tiles
# unsplit and the 64x128 cooperative tile (automatic split / unsplit), one run per layout.
set -u
B=${B:-build-probe/s43d}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
f=$B/bench/graphgemm_bench
SH=bench/results/h100/experiments_s43/shapes_longk.json
for L in kn nk; do
  s=$([ $L = kn ] && echo bn || echo bk)
  S="cublaslt,sm90,sm90=sm90_bf16_bf16_16x64x64_s20_c1x1_sw_${s}:none,sm90=sm90_bf16_bf16_16x128x64_s12_c1x1_sw_${s}:none"
  S="$S,sm90=sm90_bf16_bf16_32x64x64_s18_c1x1_sw_${s}:none,sm90=sm90_bf16_bf16_32x128x64_s10_c1x1_sw_${s}:none"
  S="$S,sm90=sm90_bf16_bf16_64x128x64_s8_c1x1_${s},sm90=sm90_bf16_bf16_64x128x64_s8_c1x1_${s}:none"
  timeout 150 $f --shapes $SH --suites longk --dtypes bf16 --b-layout $L --no-peak --backends "$S" --out $OUT/$L > $OUT/$L.log 2>&1; echo "$L rc=$?"
done
