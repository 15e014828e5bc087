#!/usr/bin/env bash
# Session 44, call 8 (no library change; bench pack s44c): session 43's call 8 again in two rounds
# (its one round was noisy): M = 16 / 32 at long K, both B layouts, automatic beside its swap tiles
# unsplit and the 64x128 cooperative tile (automatic split / unsplit). Data for the swap split rule
# at N = 7168, K >= 8192.
set -u
B=${B:-build-probe/s44c}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
SH=bench/results/h100/experiments_s43/shapes_longk.json
for r in 1 2; do for L in kn nk; do
  s=$([ $L = kn ] && echo bn || echo bk)
  S="cublaslt,sm90,sm90=sm90_bf16_bf16_16x64x64_s20_c1x1_sw_${s}:none,sm90=sm90_bf16_bf16_16x128x64_s12_c1x1_sw_${s}:none"
  S="$S,sm90=sm90_bf16_bf16_32x64x64_s18_c1x1_sw_${s}:none,sm90=sm90_bf16_bf16_32x128x64_s10_c1x1_sw_${s}:none"
  S="$S,sm90=sm90_bf16_bf16_64x128x64_s8_c1x1_${s},sm90=sm90_bf16_bf16_64x128x64_s8_c1x1_${s}:none"
  timeout 120 $B/bench/graphgemm_bench --shapes $SH --suites longk --dtypes bf16 --b-layout $L --no-peak --backends "$S" --out $OUT/${L}_r$r > /dev/null 2>&1; echo "$L r$r rc=$?"
done; done
for L in kn nk; do echo "== $L (time / floor, rounds r1/r2)"; python3 bench/results/h100/experiments_s43/tile_table.py $OUT/${L}_r1/*.json $OUT/${L}_r2/*.json; done
