#!/usr/bin/env bash
# Session 61, call A: session 60's call D (never run) on s61a = session 60's library with the swap-AB
# epilogues' shared value helper (swapped_value: the staged epilogue now rounds as store_swapped,
# acc * alpha * scale_b * scale_a + bias) and kSplitCluster = kDecodeTile.
# 0. sm90_gemm_check on the token tiles (their epilogue changed).
# 1. 'tokmv': automatic beside the previous choices forced (128x176, 128x192, 128x256 c1x1, ping-pong
#    128x128 / 128x112) and cuBLASLt, two rounds, order reversed.
# 2. 'toksus': sustained turns (400 ms) on four moved shapes, beside their previous choices.
# 3. Every GPU test; compute-sanitizer memcheck and racecheck on the token-tile tests.
set -u
B=${B:-build-probe/s61a}
source tools/device_call_env.sh
D=bench/results/h100/experiments_s60
timeout 100 $B/tools/sm90_gemm_check --quick --filter=x128x64_s6_c1x1_sw_bk > $OUT/check160.log 2>&1; echo "check160 rc=$?"
timeout 100 $B/tools/sm90_gemm_check --quick --filter=x128x64_s5_c1x1_sw_bk > $OUT/check192.log 2>&1; echo "check192 rc=$?"
tail -n 2 $OUT/check160.log $OUT/check192.log
timeout 150 $T > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|tests ran|SKIPPED \]" $OUT/gtest.log | head -12
F='Sm90.SwapABTokenTiles:Sm90.AutomaticTakesTokenTiles'
timeout 100 compute-sanitizer --tool memcheck $T --gtest_filter="$F" > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck.log | head -3
timeout 120 compute-sanitizer --tool racecheck $T --gtest_filter="$F" > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"
grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" $OUT/racecheck.log | head -3
K="sm90=${P}128x176x64_s5_c1x1_bk:none,sm90=${P}128x192x64_s4_c1x1_bk:none,sm90=${P}128x256x64_s4_c1x1_bk:none,sm90=${P}128x128x64_s6_c1x1_pp_bk:none,sm90=${P}128x112x64_s7_c1x1_pp_bk:none"
R=$(reverse "$K")
timeout 100 $X --shapes $D/shapes.json --suites tokmv --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/mv_r1 > $OUT/mv_r1.log 2>&1; echo "mv r1 rc=$?"
timeout 100 $X --shapes $D/shapes.json --suites tokmv --dtypes bf16 --no-peak --backends "$R,sm90,cublaslt" --out $OUT/mv_r2 > $OUT/mv_r2.log 2>&1; echo "mv r2 rc=$?"
python3 $S/tile_table.py $OUT/mv_r1/gemm_bf16.json $OUT/mv_r2/gemm_bf16.json | tee $OUT/table_tokmv.txt
Q="sm90=${P}128x176x64_s5_c1x1_bk:none,sm90=${P}128x256x64_s4_c1x1_bk:none,sm90=${P}128x128x64_s6_c1x1_pp_bk:none"
timeout 60 $X --shapes $D/shapes.json --suites toksus --dtypes bf16 --no-peak --sustain-ms 400 --backends "cublaslt,sm90,$Q" --out $OUT/sus > $OUT/sus.log 2>&1; echo "sus rc=$?"
python3 $S/tile_table.py $OUT/sus/gemm_bf16.json $OUT/sus/gemm_bf16.json | tee $OUT/table_toksus.txt
(cd $OUT && tar czf logs.tgz mv_* sus sus.log && rm -rf mv_* sus sus.log)
