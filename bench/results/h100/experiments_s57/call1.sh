#!/usr/bin/env bash
# Session 57, call 1. s57f: the library with the fill tile 128x80 (a10bd74 + session 57's change),
# built with -DBUILD_SHARED_LIBS=ON and packed with
#   PACK_FILES="tests/graphgemm_gpu_tests bench/graphgemm_bench" tools/pack_prebuilt.sh build-probe/s57f build-shared
# 1. session 56's call 2 on it: every GPU test, memcheck / racecheck on the last-N-tile test (its
#    128x144 and 128x80 cases), the 28 shapes the wave tile moved beside the previous choice forced,
#    the pair shapes (the fill rule moves none of those: it replaces only a 128x96 choice);
# 2. 'serial_cand': automatic beside serial split-K in 2, stream-K and parallel split-K in 2 (the
#    model's kernels) and cuBLASLt;
# 3. 'fill_moved': automatic beside 128x96 forced and cuBLASLt;
# 2 and 3 in two rounds with the order reversed.
set -u
B=${B:-build-probe/s57f}
B=$B bash bench/results/h100/experiments_s56/call2.sh
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
D=bench/results/h100/experiments_s57
X=$B/bench/graphgemm_bench
K="sm90:serial:2,sm90:streamk,sm90:parallel:2"
R=$(echo "$K" | tr ',' '\n' | tac | paste -sd,)
timeout 150 $X --shapes $D/shapes.json --suites serial_cand --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/serial_r1 > $OUT/serial_r1.log 2>&1; echo "serial r1 rc=$?"
timeout 150 $X --shapes $D/shapes.json --suites serial_cand --dtypes bf16 --no-peak --backends "$R,sm90,cublaslt" --out $OUT/serial_r2 > $OUT/serial_r2.log 2>&1; echo "serial r2 rc=$?"
python3 bench/results/h100/experiments_s55/tile_table.py $OUT/serial_r1/gemm_bf16.json $OUT/serial_r2/gemm_bf16.json > $OUT/table_serial.txt
O=sm90=sm90_bf16_bf16_128x96x64_s6_c1x1_bk:none
timeout 60 $X --shapes $D/shapes.json --suites fill_moved --dtypes bf16 --no-peak --backends "cublaslt,sm90,$O" --out $OUT/fill_r1 > $OUT/fill_r1.log 2>&1; echo "fill r1 rc=$?"
timeout 60 $X --shapes $D/shapes.json --suites fill_moved --dtypes bf16 --no-peak --backends "$O,sm90,cublaslt" --out $OUT/fill_r2 > $OUT/fill_r2.log 2>&1; echo "fill r2 rc=$?"
python3 bench/results/h100/experiments_s56/ab_table.py $OUT/fill_r1/gemm_bf16.json -- $OUT/fill_r2/gemm_bf16.json > $OUT/table_fill.txt
cat $OUT/table_serial.txt $OUT/table_fill.txt
cd $OUT && tar czf s57.tgz serial_r* fill_r* && rm -rf serial_r* fill_r*
