#!/usr/bin/env bash
# Session 39, call 8: gemv with 2 / 4 row groups a warp (32 / 64 weight rows a CTA share each token
# load: a lane's token loads per weight load halved / quartered), 16 tokens a pass (M = 16) and 8
# (M = 8), forced by name beside cuBLASLt and automatic (swap-AB at M = 16, gemv8 at M = 8); llm
# M = 16 and five M = 8 shapes, two rounds. An experiment build (`call8` instances).
set -u
B=build-probe/s39r/bench/graphgemm_bench
gunzip -f $B.gz; chmod +x $B
nvidia-smi --query-gpu=name --format=csv,noheader
P=sm90=sm90_bf16_bf16_
K="${P}gemv16_w16_u1_r2_bk,${P}gemv16_w8_u2_r2_bk,${P}gemv16_w16_u2_r2_bk,${P}gemv16_w8_u1_r4_bk,${P}gemv16_w8_u2_bk"
K8="${P}gemv8_w8_u2_bk,${P}gemv8_w16_u2_bk,${P}gemv8_w8_u2_r2_bk,${P}gemv16_w16_u1_r2_bk"
for round in 1 2; do
  $B --suites llm --min-m 16 --max-m 16 --dtypes bf16 --no-peak --backends cublaslt,sm90,$K --out $OUT/tmp > $OUT/r${round}_m16.log 2>&1 || echo "m16 rc=$?"
  for s in 8x4096x4096 8x6144x4096 8x2112x7168 8x7168x2048 8x4096x14336; do
    $B --shape $s --dtypes bf16 --no-peak --backends cublaslt,sm90,$K8 --out $OUT/tmp >> $OUT/r${round}_m8.log 2>&1 || echo "$s rc=$?"
  done
done
rm -rf $OUT/tmp
