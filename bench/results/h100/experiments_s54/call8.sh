#!/usr/bin/env bash
# Session 54, call 8: a tile sweep on the compute-bound rows (shapes_big.json: square, llm M >=
# 1024; B N x K): automatic beside every cooperative / ping-pong tile forced (unsplit; 128x256 c2x1
# also stream-K) and cuBLASLt, two rounds with the order reversed (sweep_big.py: rows where a
# forced tile beats automatic in both rounds).
set -u
B=${B:-build-probe/s54b}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s54
X=$B/bench/graphgemm_bench
P=sm90=sm90_bf16_bf16_
K="${P}128x256x64_s4_c2x1_bk:none,${P}128x256x64_s4_c2x1_bk:streamk,${P}128x256x64_s4_c1x1_bk:none,${P}128x192x64_s4_c1x1_bk:none,${P}128x176x64_s5_c1x1_bk:none,${P}128x136x64_s5_c1x1_bk:none,${P}128x128x64_s6_c1x1_bk:none,${P}128x128x64_s6_c2x1_bk:none,${P}128x128x64_s6_c1x2_bk:none,${P}128x128x64_s6_c1x1_pp_bk,${P}128x128x64_s6_c2x1_pp_bk,${P}64x256x64_s4_c1x1_pp_bk,${P}128x96x64_s6_c1x1_bk:none"
R=$(echo "$K" | tr ',' '\n' | tac | paste -sd,)
timeout 280 $X --shapes $D/shapes_big.json --suites big,llmbig --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/r1 > $OUT/r1.log 2>&1; echo "r1 rc=$?"
timeout 280 $X --shapes $D/shapes_big.json --suites big,llmbig --dtypes bf16 --no-peak --backends "$R,sm90,cublaslt" --out $OUT/r2 > $OUT/r2.log 2>&1; echo "r2 rc=$?"
python3 $D/sweep_big.py $OUT/r1/gemm_bf16.json $OUT/r2/gemm_bf16.json
cd $OUT && tar czf sweep_big.tgz r1 r2 r1.log r2.log && rm -rf r1 r2 r1.log r2.log
