#!/usr/bin/env bash
# Session 54, call 9: with the pair tiles fast again, a tile sweep at M = 192 / 256 (shapes.json
# 'm256', every llm (N, K), B N x K): automatic beside the pair tiles and the other candidate tiles
# forced, and cuBLASLt, two rounds with the order reversed (sweep_big.py); then the fp16 suites
# again for their Markdown (call 7's did not come back; committed as ../gemm_fp16.*).
set -u
B=${B:-build-probe/s54b}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s54
X=$B/bench/graphgemm_bench
P=sm90=sm90_bf16_bf16_
K="${P}128x128x64_s6_c2x1_bk:none,${P}128x112x64_s7_c2x1_bk:none,${P}64x128x64_s8_c1x1_bk:none,${P}64x64x64_s13_c1x1_bk:none,${P}128x128x64_s6_c1x1_bk:none,${P}128x128x64_s6_c1x1_pp_bk,${P}128x176x64_s5_c1x1_bk:none,${P}128x96x64_s6_c1x1_bk:none,${P}128x256x64_s4_c1x1_bk:none"
R=$(echo "$K" | tr ',' '\n' | tac | paste -sd,)
timeout 200 $X --shapes $D/shapes.json --suites m256 --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/r1 > $OUT/r1.log 2>&1; echo "r1 rc=$?"
timeout 200 $X --shapes $D/shapes.json --suites m256 --dtypes bf16 --no-peak --backends "$R,sm90,cublaslt" --out $OUT/r2 > $OUT/r2.log 2>&1; echo "r2 rc=$?"
python3 $D/sweep_big.py $OUT/r1/gemm_bf16.json $OUT/r2/gemm_bf16.json
timeout 120 $X --dtypes fp16 --backends cublaslt,sm90 --out $OUT/fp16 > $OUT/fp16.log 2>&1; echo "fp16 rc=$?"
python3 tools/diag/suite_summary.py $OUT/fp16/gemm_fp16.json
cd $OUT && tar czf sweep_m256.tgz r1 r2 r1.log r2.log fp16.log && rm -rf r1 r2 r1.log r2.log fp16.log
