#!/usr/bin/env bash
# Session 60, call B (s60b = HEAD + the swap-AB token tiles 160 / 192 x 128, chosen by name only).
# 1. sm90_gemm_check on the token tiles (correctness: random shapes, edges, poisoned D, fp64 ref).
# 2. 'tok' and 'weak': the token tiles forced beside automatic, cuBLASLt and 128x80, two rounds
#    (the forced backends in opposite orders).
# 3. The swap-AB / automatic GPU tests.
set -u
B=${B:-build-probe/s60b}
tools/unpack_prebuilt.sh $B
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s60
S=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
P=sm90_bf16_bf16_
timeout 150 $B/tools/sm90_gemm_check --quick --filter=x128x64_s6_c1x1_sw_bk > $OUT/check160.log 2>&1; echo "check160 rc=$?"
timeout 150 $B/tools/sm90_gemm_check --quick --filter=x128x64_s5_c1x1_sw_bk > $OUT/check192.log 2>&1; echo "check192 rc=$?"
tail -3 $OUT/check160.log $OUT/check192.log
T="sm90=${P}160x128x64_s6_c1x1_sw_bk:none,sm90=${P}192x128x64_s5_c1x1_sw_bk:none,sm90=${P}128x80x64_s7_c1x1_bk:none"
R=$(echo "$T" | tr ',' '\n' | tac | paste -sd,)
for s in tok weak; do
  timeout 120 $X --shapes $D/shapes.json --suites $s --dtypes bf16 --no-peak --backends "cublaslt,sm90,$T" --out $OUT/${s}_r1 > $OUT/${s}_r1.log 2>&1; echo "$s r1 rc=$?"
  timeout 120 $X --shapes $D/shapes.json --suites $s --dtypes bf16 --no-peak --backends "$R,sm90,cublaslt" --out $OUT/${s}_r2 > $OUT/${s}_r2.log 2>&1; echo "$s r2 rc=$?"
  python3 $S/tile_table.py $OUT/${s}_r1/gemm_bf16.json $OUT/${s}_r2/gemm_bf16.json | tee $OUT/table_$s.txt
done
(cd $OUT && tar czf logs.tgz tok_* weak_* && rm -rf tok_* weak_*)
timeout 120 $B/tests/graphgemm_gpu_tests --gtest_filter='*Swap*:*Automatic*:*Wide*' > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|SKIPPED \]" $OUT/gtest.log | head -10
