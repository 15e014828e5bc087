#!/usr/bin/env bash
# Session 58, call G (s58d = the final library's decisions): 'pp1', ping-pong 128x112 (c1x1) forced
# beside automatic and cuBLASLt, two rounds, order reversed: is one ping-pong tile a CTA (one
# warpgroup idle) faster than fewer CTAs of a wider cooperative tile at long K, as at 512 / 1024 x
# 3584 x 18944 in call E (0.93 / 0.92)?
set -u
B=${B:-build-probe/s58d}
tools/unpack_prebuilt.sh $B
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s58
X=$B/bench/graphgemm_bench
K="sm90=sm90_bf16_bf16_128x112x64_s7_c1x1_pp_bk:none"
timeout 100 $X --shapes $D/shapes.json --suites pp1 --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/g_r1 > $OUT/g_r1.log 2>&1; echo "r1 rc=$?"
timeout 100 $X --shapes $D/shapes.json --suites pp1 --dtypes bf16 --no-peak --backends "$K,sm90,cublaslt" --out $OUT/g_r2 > $OUT/g_r2.log 2>&1; echo "r2 rc=$?"
python3 bench/results/h100/experiments_s55/tile_table.py $OUT/g_r1/gemm_bf16.json $OUT/g_r2/gemm_bf16.json | tee $OUT/table_pp1.txt
(cd $OUT && tar czf g.tgz g_* && rm -rf g_*)
