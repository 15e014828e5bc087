#!/usr/bin/env bash
# Session 55, call 7 (s55b): the grid rows furthest behind cuBLASLt ('weak'), automatic beside
# stream-K and split-K variants and other tiles forced, two rounds with the order reversed.
set -u
B=${B:-build-probe/s55b}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
P=sm90=sm90_bf16_bf16_
K="sm90:streamk,sm90:parallel:2,sm90:serial:2,${P}128x128x64_s6_c1x1_bk:streamk,${P}128x256x64_s4_c2x1_bk:streamk,${P}128x176x64_s5_c1x1_bk:streamk,${P}128x128x64_s6_c1x1_pp_bk,${P}128x256x64_s4_c1x1_bk:none,${P}128x192x64_s4_c1x1_bk:none,${P}128x128x64_s6_c1x1_bk:none,${P}128x96x64_s6_c1x1_bk:none,${P}64x128x64_s8_c1x1_bk:none"
R=$(echo "$K" | tr ',' '\n' | tac | paste -sd,)
timeout 200 $X --shapes $D/shapes.json --suites weak --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/weak_r1 > $OUT/weak_r1.log 2>&1; echo "r1 rc=$?"
timeout 200 $X --shapes $D/shapes.json --suites weak --dtypes bf16 --no-peak --backends "$R,sm90,cublaslt" --out $OUT/weak_r2 > $OUT/weak_r2.log 2>&1; echo "r2 rc=$?"
python3 $D/tile_table.py $OUT/weak_r1/gemm_bf16.json $OUT/weak_r2/gemm_bf16.json
cd $OUT && tar czf call7.tgz weak_r* && rm -rf weak_r*
