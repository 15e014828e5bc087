#!/usr/bin/env bash
# Session 55, call 9 (s55c: stream-K ranges grouped over tile columns where every tile is shared):
# shapes.json 'sk', automatic beside stream-K on automatic's tile and on four tiles forced, and
# serial split-K in 2, cuBLASLt; two rounds with the order reversed.
set -u
B=${B:-build-probe/s55c}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
P=sm90=sm90_bf16_bf16_
K="sm90:streamk,sm90:serial:2,${P}128x128x64_s6_c1x1_bk:streamk,${P}128x256x64_s4_c1x1_bk:streamk,${P}128x176x64_s5_c1x1_bk:streamk,${P}64x128x64_s8_c1x1_bk:streamk,${P}128x256x64_s4_c2x1_bk:streamk"
R=$(echo "$K" | tr ',' '\n' | tac | paste -sd,)
timeout 200 $X --shapes $D/shapes.json --suites sk --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/sk_r1 > $OUT/sk_r1.log 2>&1; echo "r1 rc=$?"
timeout 200 $X --shapes $D/shapes.json --suites sk --dtypes bf16 --no-peak --backends "$R,sm90,cublaslt" --out $OUT/sk_r2 > $OUT/sk_r2.log 2>&1; echo "r2 rc=$?"
python3 $D/tile_table.py $OUT/sk_r1/gemm_bf16.json $OUT/sk_r2/gemm_bf16.json
cd $OUT && tar czf call9.tgz sk_r* && rm -rf sk_r*
