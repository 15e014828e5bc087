#!/usr/bin/env bash
# Session 59, call H (build s58d = session 58's final library): 'ppwide', ping-pong 128x112 (c1x1)
# forced beside automatic and cuBLASLt, two rounds, order reversed: where 112-column ping-pong
# tiles give the busiest CTA fewer output columns than the first choice, are they faster?
set -u
B=${B:-build-probe/s58d}
tools/unpack_prebuilt.sh $B
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s59
X=$B/bench/graphgemm_bench
K="sm90=sm90_bf16_bf16_128x112x64_s7_c1x1_pp_bk:none"
timeout 250 $X --shapes $D/shapes.json --suites ppwide --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/h_r1 > $OUT/h_r1.log 2>&1; echo "r1 rc=$?"
timeout 250 $X --shapes $D/shapes.json --suites ppwide --dtypes bf16 --no-peak --backends "$K,sm90,cublaslt" --out $OUT/h_r2 > $OUT/h_r2.log 2>&1; echo "r2 rc=$?"
python3 bench/results/h100/experiments_s55/tile_table.py $OUT/h_r1/gemm_bf16.json $OUT/h_r2/gemm_bf16.json | tee $OUT/table_ppwide.txt
(cd $OUT && tar czf h.tgz h_* && rm -rf h_*)
