#!/usr/bin/env bash
# Session 55, call 1 (no library change; s54b = session 54's final bench): (1) K sweeps (shapes.json
# 'ksweep') with cuBLASLt, automatic and our 128x96 / 128x112 c2x1 / 128x128 / 64x128 tiles forced,
# two rounds with the order reversed, to split each time into a + b * k-blocks; (2) ncu --set full
# and the source page of the matched pairs: 256 x 6144 x 4096 (cuBLASLt's 96x128 = our 128x96, 128
# CTAs both) and 1024^3 (cuBLASLt's 128x64 = our 64x128).
set -u
B=${B:-build-probe/s54b}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
P=sm90=sm90_bf16_bf16_
K="${P}128x96x64_s6_c1x1_bk:none,${P}128x112x64_s7_c2x1_bk:none,${P}128x128x64_s6_c1x1_bk:none,${P}64x128x64_s8_c1x1_bk:none"
R=$(echo "$K" | tr ',' '\n' | tac | paste -sd,)
timeout 150 $X --shapes $D/shapes.json --suites ksweep --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/r1 > $OUT/r1.log 2>&1; echo "r1 rc=$?"
timeout 150 $X --shapes $D/shapes.json --suites ksweep --dtypes bf16 --no-peak --backends "$R,sm90,cublaslt" --out $OUT/r2 > $OUT/r2.log 2>&1; echo "r2 rc=$?"
mkdir -p $OUT/ncu
for pair in "256x6144x4096 cublaslt lt_qkv" "256x6144x4096 ${P}128x96x64_s6_c1x1_bk:none ours_qkv" \
            "1024x1024x1024 cublaslt lt_1024" "1024x1024x1024 ${P}64x128x64_s8_c1x1_bk:none ours_1024"; do
  set -- $pair
  timeout 100 ncu --set full --import-source no --clock-control none --kernel-name regex:'nvjet|sm90|gemm' --launch-skip 2 --launch-count 1 \
    -f -o $OUT/ncu/$3 $X --shape $1 --backends "$2" --dtypes bf16 --batches 1 --no-peak --out $OUT/ncu/b_$3 > $OUT/ncu/$3.log 2>&1
  echo "ncu $3 rc=$?"
  ncu --import $OUT/ncu/$3.ncu-rep --page source --csv --print-source sass > $OUT/ncu/$3.source.csv 2>&1
  ncu --import $OUT/ncu/$3.ncu-rep --page details --csv > $OUT/ncu/$3.details.csv 2>&1
  rm -f $OUT/ncu/$3.ncu-rep
done
python3 $D/ksweep_fit.py $OUT/r1/gemm_bf16.json $OUT/r2/gemm_bf16.json
cd $OUT && tar czf call1.tgz r1 r2 r1.log r2.log ncu && rm -rf r1 r2 r1.log r2.log ncu
