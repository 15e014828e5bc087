#!/usr/bin/env bash
# Session 60, call C (s60c = the token tiles with the staged epilogue: stmatrix .trans through 512
# bytes a warp, 16-byte stores; 16-bit D without C).
# 1. sm90_gemm_check on the token tiles. 2. 'tok' and 'weak' again (two rounds; compare with call B:
# the old epilogue, same automatic). 3. 'm320' (the broad set's M = 320 rows) with 160x128 forced,
# 't192' with 192x128 forced, one round each. 4. The swap-AB / automatic GPU tests.
set -u
B=${B:-build-probe/s60c}
tools/unpack_prebuilt.sh $B
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s60
S=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
P=sm90_bf16_bf16_
timeout 150 $B/tools/sm90_gemm_check --quick --filter=x128x64_s6_c1x1_sw_bk > $OUT/check160.log 2>&1; echo "check160 rc=$?"
timeout 150 $B/tools/sm90_gemm_check --quick --filter=x128x64_s5_c1x1_sw_bk > $OUT/check192.log 2>&1; echo "check192 rc=$?"
grep -h "PASSED\|FAILED\|fail" $OUT/check160.log $OUT/check192.log | tail -4
T="sm90=${P}160x128x64_s6_c1x1_sw_bk:none,sm90=${P}192x128x64_s5_c1x1_sw_bk:none"
R=$(echo "$T" | tr ',' '\n' | tac | paste -sd,)
for s in tok weak; do
  timeout 100 $X --shapes $D/shapes.json --suites $s --dtypes bf16 --no-peak --backends "cublaslt,sm90,$T" --out $OUT/${s}_r1 > $OUT/${s}_r1.log 2>&1; echo "$s r1 rc=$?"
  timeout 100 $X --shapes $D/shapes.json --suites $s --dtypes bf16 --no-peak --backends "$R,sm90,cublaslt" --out $OUT/${s}_r2 > $OUT/${s}_r2.log 2>&1; echo "$s r2 rc=$?"
  python3 $S/tile_table.py $OUT/${s}_r1/gemm_bf16.json $OUT/${s}_r2/gemm_bf16.json | tee $OUT/table_$s.txt
done
timeout 120 $X --shapes $D/shapes.json --suites m320 --dtypes bf16 --no-peak --backends "cublaslt,sm90,sm90=${P}160x128x64_s6_c1x1_sw_bk:none" --out $OUT/m320 > $OUT/m320.log 2>&1; echo "m320 rc=$?"
python3 $S/tile_table.py $OUT/m320/gemm_bf16.json $OUT/m320/gemm_bf16.json | tee $OUT/table_m320.txt
timeout 80 $X --shapes $D/shapes.json --suites t192 --dtypes bf16 --no-peak --backends "cublaslt,sm90,sm90=${P}192x128x64_s5_c1x1_sw_bk:none" --out $OUT/t192 > $OUT/t192.log 2>&1; echo "t192 rc=$?"
python3 $S/tile_table.py $OUT/t192/gemm_bf16.json $OUT/t192/gemm_bf16.json | tee $OUT/table_t192.txt
(cd $OUT && tar czf logs.tgz tok_* weak_* m320* t192* && rm -rf tok_* weak_* m320 m320.log t192 t192.log)
timeout 100 $B/tests/graphgemm_gpu_tests --gtest_filter='*Swap*:*Automatic*:*Wide*' > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|SKIPPED \]" $OUT/gtest.log | head -10
