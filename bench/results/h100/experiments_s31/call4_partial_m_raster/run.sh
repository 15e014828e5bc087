#!/bin/bash
# Call 4 (session 31): the slow partial M tile: raster order and valid rows (4096x4096, 64x128 forced, no PDL)
cd "$(dirname "$0")"
for f in *.gz; do gunzip -kf $f; chmod +x ${f%.gz}; done
o=$OUT/call4; mkdir -p $o; t=/tmp/c4; mkdir -p $t
K=sm90=sm90_bf16_bf16_64x128x64_s8_c1x1_bk
for M in 129 130 136 144 160 176 192; do
  ./bench --shape ${M}x4096x4096 --no-peak --backends cublaslt,$K+nopdl:none,$K+nopdl+rn8:none,$K+nopdl+rm1:none,$K+nopdl+rm2:none --out $t/m$M > $t/m$M.log 2>&1
  echo "M=$M rc=$?" >> $o/all.txt
  grep -E "^\| shape" $t/m$M/gemm_bf16.md >> $o/all.txt
done
grep -E "^\| (suite|name|shape) " $t/m129/gemm_bf16.md | head -1 >> $o/all.txt
head -12 $t/m129/gemm_bf16.md >> $o/all.txt
cat $o/all.txt | cut -c1-250
