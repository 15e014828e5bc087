#!/usr/bin/env bash
# Session 44, call 9: A/B of the 32x128 swap-AB rule (kSwapUnsplit128*) in one binary (s44e, the
# rule's build): on every row it moves of shapes_moved.json (the llm / splitk rows 16 / 32 x 7168 x
# 16384, and 6400 / 6656 / 7168 x K 8192-28672 at M 12-32), automatic (the rule) beside the previous
# automatic choice forced by name (B K x N: 16x128 / 32x128 split in two, summed in clusters of 2;
# B N x K: 16x64 / 32x64 unsplit), both B layouts, two rounds.
set -u
B=${B:-build-probe/s44e}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
SH=bench/results/h100/experiments_s44/shapes_moved.json
for r in 1 2; do for L in kn nk; do
  if [ $L = kn ]; then
    S="cublaslt,sm90,sm90=sm90_bf16_bf16_16x128x64_s12_c1x1_sw_bn:parallel:2:c2,sm90=sm90_bf16_bf16_32x128x64_s10_c1x1_sw_bn:parallel:2:c2"
  else
    S="cublaslt,sm90,sm90=sm90_bf16_bf16_16x64x64_s20_c1x1_sw_bk:none,sm90=sm90_bf16_bf16_32x64x64_s18_c1x1_sw_bk:none"
  fi
  timeout 100 $B/bench/graphgemm_bench --shapes $SH --suites moved --dtypes bf16 --b-layout $L --no-peak --backends "$S" --out $OUT/${L}_r$r > $OUT/${L}_r$r.log 2>&1; echo "$L r$r rc=$?"
done; done
for L in kn nk; do echo "== $L (time / floor, r1/r2)"; python3 bench/results/h100/experiments_s43/tile_table.py $OUT/${L}_r1/*.json $OUT/${L}_r2/*.json; done
rm -f $OUT/*.log
