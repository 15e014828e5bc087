#!/usr/bin/env bash
# Session 60, call A (s60a = HEAD 9816f84, the final library of session 59).
# 1. Every GPU test on the final library.
# 2. 'sus3': session 59's call K: sustained turns (400 ms) of automatic beside the previous choices
#    forced on the evener-columns moves not yet timed sustained.
# 3. 'weak2': the 17 rows where cuBLASLt leads by 9-22% (off the suites), with the tiles and splits
#    session 59 did not force there (128x128 stream-K / serial 2 / parallel 2, 64x128, 64x256
#    ping-pong, 128x96, the 128x128 pair), one round.
# 4. ncu: the kernel cuBLASLt runs on five of those rows (name, grid, time).
set -u
B=${B:-build-probe/s60a}
tools/unpack_prebuilt.sh $B
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s60
S=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
P=sm90_bf16_bf16_
timeout 200 $B/tests/graphgemm_gpu_tests > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|tests ran|SKIPPED \]" $OUT/gtest.log | head -20
Q="sm90=${P}128x256x64_s4_c1x1_bk:none,sm90=${P}128x128x64_s6_c1x1_bk:none"
timeout 100 $X --shapes $D/shapes.json --suites sus3 --dtypes bf16 --no-peak --sustain-ms 400 --backends "cublaslt,sm90,$Q" --out $OUT/sus3 > $OUT/sus3.log 2>&1; echo "sus3 rc=$?"
python3 $S/tile_table.py $OUT/sus3/gemm_bf16.json $OUT/sus3/gemm_bf16.json | tee $OUT/table_sus3.txt
W="sm90=${P}128x128x64_s6_c1x1_bk:streamk,sm90=${P}128x128x64_s6_c1x1_bk:serial:2,sm90=${P}128x128x64_s6_c1x1_bk:parallel:2,sm90=${P}64x128x64_s8_c1x1_bk:none,sm90=${P}64x256x64_s4_c1x1_pp_bk:none,sm90=${P}128x96x64_s6_c1x1_bk:none,sm90=${P}128x128x64_s6_c2x1_bk:none"
timeout 170 $X --shapes $D/shapes.json --suites weak --dtypes bf16 --no-peak --backends "cublaslt,sm90,$W" --out $OUT/wk > $OUT/wk.log 2>&1; echo "wk rc=$?"
python3 $S/tile_table.py $OUT/wk/gemm_bf16.json $OUT/wk/gemm_bf16.json | tee $OUT/table_weak2.txt
(cd $OUT && tar czf logs.tgz sus3 sus3.log wk wk.log && rm -rf sus3 sus3.log wk wk.log)
BENCH=$X NAME_WIDTH=80 timeout 150 tools/diag/ncu_shapes.sh $OUT/ncu "384x3072x3072 cublaslt" "3072x1024x4096 cublaslt" "1536x3072x3072 cublaslt" "1280x4096x4096 cublaslt" "320x57344x8192 cublaslt" 2>&1 | tee $OUT/ncu_names.txt
(cd $OUT && tar czf ncu.tgz ncu && rm -rf ncu)
