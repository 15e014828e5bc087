#!/usr/bin/env bash
# Session 60, call E (s60d, the final library): the correctness half of call D alone (device time ran
# short after failed machine starts): every GPU test, then compute-sanitizer memcheck and racecheck
# on the token-tile tests, then the moved rows in one round if time is left.
set -u
B=${B:-build-probe/s60d}
source tools/device_call_env.sh
timeout 120 $T > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|SKIPPED \]" $OUT/gtest.log | head -12
F='Sm90.SwapABTokenTiles:Sm90.AutomaticTakesTokenTiles'
timeout 60 compute-sanitizer --tool memcheck $T --gtest_filter="$F" > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck.log | head -3
timeout 80 compute-sanitizer --tool racecheck $T --gtest_filter="$F" > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"
grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" $OUT/racecheck.log | head -3
K="sm90=${P}128x176x64_s5_c1x1_bk:none,sm90=${P}128x192x64_s4_c1x1_bk:none,sm90=${P}128x256x64_s4_c1x1_bk:none,sm90=${P}128x128x64_s6_c1x1_pp_bk:none,sm90=${P}128x112x64_s7_c1x1_pp_bk:none"
timeout 60 $X --shapes bench/results/h100/experiments_s60/shapes.json --suites tokmv --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/mv > $OUT/mv.log 2>&1; echo "mv rc=$?"
python3 $S/tile_table.py $OUT/mv/gemm_bf16.json $OUT/mv/gemm_bf16.json > $OUT/table_tokmv.txt 2>&1 && cat $OUT/table_tokmv.txt
(cd $OUT && tar czf mv.tgz mv mv.log 2>/dev/null && rm -rf mv mv.log)
