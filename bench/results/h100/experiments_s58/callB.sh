#!/usr/bin/env bash
# Session 58, call B (s58a, as call A). Parts, each packed as it ends:
#  1. 'kshort' (shapes.json): the pair tiles 128x112 / 128x128 in 2x1 clusters forced, with and
#     without programmatic launch, beside automatic and cuBLASLt, two rounds (order reversed).
#     'pdl': automatic with programmatic launch forced on / off where automatic leaves it off.
#  2. ncu at 256 x 7168 x 2048: our 128x112 c2x1 (cuBLASLt's own configuration there,
#     nvjet_sm90_tst_112x128_64x7_2x1) beside cuBLASLt; 1024^3 with the caches kept between launches.
set -u
B=${B:-build-probe/s58a}
tools/unpack_prebuilt.sh $B
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s58
S=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
P=sm90_bf16_bf16_
K="sm90=${P}128x112x64_s7_c2x1+pdl:none,sm90=${P}128x112x64_s7_c2x1+nopdl:none,sm90=${P}128x128x64_s6_c2x1+pdl:none,sm90+pdl,sm90+nopdl"
R=$(echo "$K" | tr ',' '\n' | tac | paste -sd,)
timeout 150 $X --shapes $D/shapes.json --suites kshort --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/ks_r1 > $OUT/ks_r1.log 2>&1; echo "ks r1 rc=$?"
timeout 150 $X --shapes $D/shapes.json --suites kshort --dtypes bf16 --no-peak --backends "$R,sm90,cublaslt" --out $OUT/ks_r2 > $OUT/ks_r2.log 2>&1; echo "ks r2 rc=$?"
python3 $S/tile_table.py $OUT/ks_r1/gemm_bf16.json $OUT/ks_r2/gemm_bf16.json | tee $OUT/table_ks.txt
(cd $OUT && tar czf ks.tgz ks_* && rm -rf ks_*)
timeout 100 $X --shapes $D/shapes.json --suites pdl --dtypes bf16 --no-peak --backends "cublaslt,sm90,sm90+pdl,sm90+nopdl" --out $OUT/pdl_r1 > $OUT/pdl_r1.log 2>&1; echo "pdl r1 rc=$?"
timeout 100 $X --shapes $D/shapes.json --suites pdl --dtypes bf16 --no-peak --backends "sm90+nopdl,sm90+pdl,sm90,cublaslt" --out $OUT/pdl_r2 > $OUT/pdl_r2.log 2>&1; echo "pdl r2 rc=$?"
python3 $S/tile_table.py $OUT/pdl_r1/gemm_bf16.json $OUT/pdl_r2/gemm_bf16.json | tee $OUT/table_pdl.txt
(cd $OUT && tar czf pdl.tgz pdl_* && rm -rf pdl_*)
export BENCH=$X NAME_WIDTH=60 EXTRA_METRICS=lts__t_bytes.sum,smsp__inst_executed.sum
timeout 120 tools/diag/ncu_shapes.sh $OUT/ncu "256x7168x2048 cublaslt" "256x7168x2048 sm90=${P}128x112x64_s7_c2x1+pdl:none" > $OUT/ncu.txt 2>&1
CACHE_CONTROL=none timeout 120 tools/diag/ncu_shapes.sh $OUT/ncu "1024x1024x1024 cublaslt" "1024x1024x1024 sm90" >> $OUT/ncu.txt 2>&1; echo "ncu rc=$?"
cut -c1-16,24-60,100-400 $OUT/ncu.txt
(cd $OUT && tar czf ncu.tgz ncu && rm -rf ncu)
