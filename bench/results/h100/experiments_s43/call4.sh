#!/usr/bin/env bash
# Session 43, call 4: the decode rows (llm M = 1 / 16, splitk M <= 32) with B stored K x N, every
# swap-AB `_bn` tile forced beside automatic, the 64x128 / 64x64 cooperative tiles (unsplit and
# automatic split) and cuBLASLt, two rounds; then B N x K with its two one-k-block 16-token swap
# tiles forced, for the same tile on both layouts.
set -u
B=${B:-build-probe/s43b}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
f=$B/bench/graphgemm_bench
K=sm90_bf16_bf16
S="cublaslt,sm90"
for t in 16x64x64_s20_c1x1_sw 16x128x64_s12_c1x1_sw 16x64x256_s5_c1x1_sw 32x64x64_s18_c1x1_sw 32x128x64_s10_c1x1_sw; do S="$S,sm90=${K}_${t}_bn:none"; done
S="$S,sm90=${K}_64x128x64_s8_c1x1_bn:none,sm90=${K}_64x128x64_s8_c1x1_bn,sm90=${K}_64x64x64_s13_c1x1_bn:none"
for r in 1 2; do
  timeout 200 $f --suites llm,splitk --max-m 32 --dtypes bf16 --b-layout kn --no-peak --backends "$S" --out $OUT/kn_r$r > $OUT/kn_r$r.log 2>&1; echo "kn r$r rc=$?"
done
S="cublaslt,sm90,sm90=${K}_16x64x64_s20_c1x1_sw_bk:none,sm90=${K}_16x128x64_s12_c1x1_sw_bk:none"
timeout 100 $f --suites llm,splitk --max-m 32 --dtypes bf16 --no-peak --backends "$S" --out $OUT/nk > $OUT/nk.log 2>&1; echo "nk rc=$?"
