#!/usr/bin/env bash
# Session 43, call 2: deepseek_v3.a M = 1024 (1024 x 2112 x 7168) with B stored K x N, 0.70x cuBLASLt
# in call 1 (automatic: 128x192, 88 tiles on 132 SMs): every B K x N tile forced, unsplit, and
# stream-K, beside cuBLASLt and automatic, two rounds; the same shape with B N x K for reference.
set -u
B=${B:-build-probe/s43a}
f=$B/bench/graphgemm_bench
[ -x $f ] || tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
K="sm90_bf16_bf16"
BK="cublaslt,sm90,sm90:streamk"
for t in 128x256x64_s4_c1x1 128x256x64_s4_c2x1 128x192x64_s4_c1x1 128x128x64_s6_c1x1 128x128x64_s6_c1x2 64x128x64_s8_c1x1 64x64x64_s13_c1x1 128x128x64_s6_c1x1_pp 64x256x64_s4_c1x1_pp; do
  BK="$BK,sm90=${K}_${t}_bn:none"
done
for t in 128x192x64_s4_c1x1 128x128x64_s6_c1x1 128x256x64_s4_c1x1; do BK="$BK,sm90=${K}_${t}_bn:streamk"; done
for r in 1 2; do
  timeout 120 $f --shape 1024x2112x7168 --dtypes bf16 --no-peak --b-layout kn --backends "$BK" --out $OUT/kn_r$r > $OUT/kn_r$r.log 2>&1; echo "kn r$r rc=$?"
done
timeout 60 $f --shape 1024x2112x7168 --dtypes bf16 --no-peak --backends "cublaslt,sm90,sm90:streamk" --out $OUT/nk > $OUT/nk.log 2>&1; echo "nk rc=$?"
