#!/usr/bin/env bash
# Session 59, call I (s59a = the evener-columns criterion for ping-pong 128x112: 8 of 663 shapes
# move, suite rows deepseek_v3.c M = 1024 (llm) and M = 1000 (ragged)).
# 1. 'ppmove': automatic beside the previous choices forced, two rounds, order reversed.
# 2. 'ppsus': sustained turns (400 ms), automatic beside ping-pong 128x112 and 128x256 c1x1 / c2x1.
# 3. Every GPU test. 4. The default suites (bf16, B N x K), cuBLASLt beside automatic.
# 5. 'weak': stream-K and other tiles forced where cuBLASLt leads by >= 9% (one round).
set -u
B=${B:-build-probe/s59a}
tools/unpack_prebuilt.sh $B
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s59
S=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
P=sm90_bf16_bf16_
K="sm90=${P}128x128x64_s6_c1x1_bk:none,sm90=${P}128x256x64_s4_c1x1_bk:none,sm90=${P}128x256x64_s4_c2x1_bk:none"
R=$(echo "$K" | tr ',' '\n' | tac | paste -sd,)
timeout 150 $X --shapes $D/shapes.json --suites ppmove --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/mv_r1 > $OUT/mv_r1.log 2>&1; echo "mv r1 rc=$?"
timeout 150 $X --shapes $D/shapes.json --suites ppmove --dtypes bf16 --no-peak --backends "$R,sm90,cublaslt" --out $OUT/mv_r2 > $OUT/mv_r2.log 2>&1; echo "mv r2 rc=$?"
python3 $S/tile_table.py $OUT/mv_r1/gemm_bf16.json $OUT/mv_r2/gemm_bf16.json | tee $OUT/table_move.txt
Q="sm90=${P}128x112x64_s7_c1x1_pp_bk:none,sm90=${P}128x256x64_s4_c1x1_bk:none,sm90=${P}128x256x64_s4_c2x1_bk:none"
timeout 120 $X --shapes $D/shapes.json --suites ppsus --dtypes bf16 --no-peak --sustain-ms 400 --backends "cublaslt,sm90,$Q" --out $OUT/sus > $OUT/sus.log 2>&1; echo "sus rc=$?"
python3 $S/tile_table.py $OUT/sus/gemm_bf16.json $OUT/sus/gemm_bf16.json | tee $OUT/table_sus.txt
(cd $OUT && tar czf mv.tgz mv_* sus* && rm -rf mv_* sus)
timeout 200 $B/tests/graphgemm_gpu_tests > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|tests ran|SKIPPED \]" $OUT/gtest.log | head -20
timeout 200 $X --dtypes bf16 --backends cublaslt,sm90 --out $OUT/suites > $OUT/suites.log 2>&1; echo "suites rc=$?"
python3 tools/diag/suite_summary.py $OUT/suites/gemm_bf16.json
(cd $OUT && tar czf suites.tgz suites suites.log && rm -rf suites suites.log)
W="sm90=${P}128x256x64_s4_c2x1_bk:streamk,sm90=${P}128x256x64_s4_c1x1_bk:streamk,sm90=${P}128x144x64_s5_c1x1_bk:none,sm90=${P}128x192x64_s4_c1x1_bk:none,sm90=${P}128x128x64_s6_c1x1_pp_bk:none"
timeout 150 $X --shapes $D/shapes.json --suites weak --dtypes bf16 --no-peak --backends "cublaslt,sm90,$W" --out $OUT/wk > $OUT/wk.log 2>&1; echo "wk rc=$?"
python3 $S/tile_table.py $OUT/wk/gemm_bf16.json $OUT/wk/gemm_bf16.json | tee $OUT/table_weak.txt
(cd $OUT && tar czf wk.tgz wk wk.log && rm -rf wk wk.log)
