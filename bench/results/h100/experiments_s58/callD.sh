#!/usr/bin/env bash
# Session 58, call D (s58b: s58a + the ping-pong 128x112 tiles, c1x1 / c2x1, 7 stages, B N x K,
# chosen by name only). 1. GPU tests of the ping-pong kernels (every instance, the new ones on
# ragged shapes and every epilogue) and of the automatic choices. 2. 'pp112': the new tiles forced
# beside automatic, ping-pong 128x128 and cuBLASLt, two rounds (order reversed). 3. ncu at
# 512 x 7168 x 2048: cuBLASLt's grid beside the new tiles. 4. Call C's ncu source pages (256 x 7168
# x 2048: our pair tile, cuBLASLt), if time is left.
set -u
B=${B:-build-probe/s58b}
tools/unpack_prebuilt.sh $B
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s58
S=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
P=sm90_bf16_bf16_
timeout 240 $B/tests/graphgemm_gpu_tests --gtest_filter='Sm90Pingpong.*:Sm90.Automatic*' > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|tests ran" $OUT/gtest.log | head -20
K="sm90=${P}128x112x64_s7_c1x1_pp_bk:none,sm90=${P}128x112x64_s7_c2x1_pp_bk:none,sm90=${P}128x128x64_s6_c1x1_pp_bk:none"
R=$(echo "$K" | tr ',' '\n' | tac | paste -sd,)
timeout 150 $X --shapes $D/shapes.json --suites pp112 --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/pp_r1 > $OUT/pp_r1.log 2>&1; echo "pp r1 rc=$?"
timeout 150 $X --shapes $D/shapes.json --suites pp112 --dtypes bf16 --no-peak --backends "$R,sm90,cublaslt" --out $OUT/pp_r2 > $OUT/pp_r2.log 2>&1; echo "pp r2 rc=$?"
python3 $S/tile_table.py $OUT/pp_r1/gemm_bf16.json $OUT/pp_r2/gemm_bf16.json | tee $OUT/table_pp.txt
(cd $OUT && tar czf pp.tgz pp_* && rm -rf pp_*)
export BENCH=$X NAME_WIDTH=60
timeout 100 tools/diag/ncu_shapes.sh $OUT/ncu "512x7168x2048 cublaslt" "512x7168x2048 sm90=${P}128x112x64_s7_c2x1_pp_bk:none" "768x7168x2048 cublaslt" > $OUT/ncu.txt 2>&1; echo "ncu rc=$?"
cut -c1-16,24-60,100-300 $OUT/ncu.txt
(cd $OUT && tar czf ncu.tgz ncu && rm -rf ncu)
timeout 100 tools/diag/ncu_source.sh $OUT/src 256x7168x2048 "sm90=${P}128x112x64_s7_c2x1+pdl:none" 3; echo "src pair rc=$?"
KERNEL=nvjet timeout 100 tools/diag/ncu_source.sh $OUT/src 256x7168x2048 cublaslt 3; echo "src cublaslt rc=$?"
ls -la $OUT/src; (cd $OUT && tar czf src.tgz src && rm -rf src)
