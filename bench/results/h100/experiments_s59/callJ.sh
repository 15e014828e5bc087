#!/usr/bin/env bash
# Session 59, call J (s59b = s59a with kPingpongEvenMaxM 1280 and kWaveMinK 3072: 9 of 663 shapes move
# against s58d, 2 suite rows (deepseek_v3.c M = 1024 / 1000), as in s59a).
# 1. 'wave3072': automatic beside 128x176 forced, two rounds, order reversed.
# 2. 'sus2': sustained turns (400 ms) of automatic beside ping-pong 128x112, 128x256 c1x1 / c2x1, 128x128, 128x176.
# 3. Every GPU test.
set -u
B=${B:-build-probe/s59b}
tools/unpack_prebuilt.sh $B
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s59
S=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
P=sm90_bf16_bf16_
K="sm90=${P}128x176x64_s5_c1x1_bk:none"
timeout 100 $X --shapes $D/shapes.json --suites wave3072 --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/wv_r1 > $OUT/wv_r1.log 2>&1; echo "wv r1 rc=$?"
timeout 100 $X --shapes $D/shapes.json --suites wave3072 --dtypes bf16 --no-peak --backends "$K,sm90,cublaslt" --out $OUT/wv_r2 > $OUT/wv_r2.log 2>&1; echo "wv r2 rc=$?"
python3 $S/tile_table.py $OUT/wv_r1/gemm_bf16.json $OUT/wv_r2/gemm_bf16.json | tee $OUT/table_wave3072.txt
Q="sm90=${P}128x112x64_s7_c1x1_pp_bk:none,sm90=${P}128x256x64_s4_c1x1_bk:none,sm90=${P}128x256x64_s4_c2x1_bk:none,sm90=${P}128x128x64_s6_c1x1_bk:none,sm90=${P}128x176x64_s5_c1x1_bk:none"
timeout 200 $X --shapes $D/shapes.json --suites sus2 --dtypes bf16 --no-peak --sustain-ms 400 --backends "cublaslt,sm90,$Q" --out $OUT/sus2 > $OUT/sus2.log 2>&1; echo "sus2 rc=$?"
python3 $S/tile_table.py $OUT/sus2/gemm_bf16.json $OUT/sus2/gemm_bf16.json | tee $OUT/table_sus2.txt
(cd $OUT && tar czf wv.tgz wv_* sus2* && rm -rf wv_* sus2 sus2.log)
timeout 200 $B/tests/graphgemm_gpu_tests > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|tests ran|SKIPPED \]" $OUT/gtest.log | head -20
