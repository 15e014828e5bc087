#!/usr/bin/env bash
# Session 55, call 2 (s55a: 128x96 s7 and 64x128 s8 in 2x1 clusters, B N x K, bf16, by name only):
# the K sweeps and session 54's 'm256' rows, both new tiles forced beside their unclustered twins,
# the 128x112 pair tile, automatic and cuBLASLt; two rounds with the order reversed.
set -u
B=${B:-build-probe/s55a}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
P=sm90=sm90_bf16_bf16_
K="${P}128x96x64_s7_c2x1_bk:none,${P}64x128x64_s8_c2x1_bk:none,${P}128x96x64_s6_c1x1_bk:none,${P}64x128x64_s8_c1x1_bk:none,${P}128x112x64_s7_c2x1_bk:none"
R=$(echo "$K" | tr ',' '\n' | tac | paste -sd,)
for s in ksweep m256; do
  timeout 120 $X --shapes $D/shapes.json --suites $s --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/${s}_r1 > $OUT/${s}_r1.log 2>&1; echo "$s r1 rc=$?"
  timeout 120 $X --shapes $D/shapes.json --suites $s --dtypes bf16 --no-peak --backends "$R,sm90,cublaslt" --out $OUT/${s}_r2 > $OUT/${s}_r2.log 2>&1; echo "$s r2 rc=$?"
done
python3 $D/ksweep_fit.py $OUT/ksweep_r1/gemm_bf16.json $OUT/ksweep_r2/gemm_bf16.json
python3 $D/tile_table.py $OUT/m256_r1/gemm_bf16.json $OUT/m256_r2/gemm_bf16.json
cd $OUT && tar czf call2.tgz ksweep_r* m256_r* && rm -rf ksweep_r* m256_r*
