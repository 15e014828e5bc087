#!/bin/bash
# Call 3 (session 31): GEMM time at M that are not multiples of 64 (4096x4096), ours vs cuBLASLt
cd "$(dirname "$0")"
for f in *.gz; do gunzip -kf $f; chmod +x ${f%.gz}; done
o=$OUT/call3; mkdir -p $o
K64=sm90_bf16_bf16_64x128x64_s8_c1x1_bk
K32=sm90_bf16_bf16_64x64x64_s13_c1x1_bk
for M in 64 96 128 129 160 192 224 255 256; do
  ./bench --shape ${M}x4096x4096 --no-peak --backends cublaslt,sm90,sm90=$K64+pdl:none,sm90=$K64+nopdl:none,sm90=$K32+pdl:none,sm90=$K32+nopdl:none --out $o/m$M > $o/m$M.log 2>&1
  echo "M=$M rc=$?"
done
for M in 64 96 128 129 160 192 224 255 256; do echo "== M=$M"; grep -E "^\|" $o/m$M/gemm_bf16.md | head -4 | tail -2; done
