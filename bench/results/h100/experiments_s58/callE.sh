#!/usr/bin/env bash
# Session 58, call E (s58c: s58b + the narrow ping-pong rule, kPingpongNarrowGain 0.95 /
# kPingpong112Efficiency 0.86 as drafted before any measurement, and its GPU test). Call D's
# content without its ncu parts (device time), plus the default suites. Each part packed as it ends.
# 1. GPU tests: the ping-pong kernels (every instance, the new 128x112 ones on ragged shapes and
#    every epilogue) and the automatic choices (the new rule's test among them).
# 2. 'pp112': automatic (the rule) beside ping-pong 128x128 forced (the previous choice), ping-pong
#    128x112 c1x1 / c2x1 forced and cuBLASLt, two rounds, order reversed.
# 3. The default suites (bf16, B N x K), cuBLASLt beside automatic.
set -u
B=${B:-build-probe/s58c}
tools/unpack_prebuilt.sh $B
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s58
S=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
P=sm90_bf16_bf16_
timeout 200 $B/tests/graphgemm_gpu_tests --gtest_filter='Sm90Pingpong.*:Sm90.Automatic*' > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|tests ran" $OUT/gtest.log | head -20
K="sm90=${P}128x128x64_s6_c1x1_pp_bk:none,sm90=${P}128x112x64_s7_c1x1_pp_bk:none,sm90=${P}128x112x64_s7_c2x1_pp_bk:none"
R=$(echo "$K" | tr ',' '\n' | tac | paste -sd,)
timeout 150 $X --shapes $D/shapes.json --suites pp112 --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/pp_r1 > $OUT/pp_r1.log 2>&1; echo "pp r1 rc=$?"
timeout 150 $X --shapes $D/shapes.json --suites pp112 --dtypes bf16 --no-peak --backends "$R,sm90,cublaslt" --out $OUT/pp_r2 > $OUT/pp_r2.log 2>&1; echo "pp r2 rc=$?"
python3 $S/tile_table.py $OUT/pp_r1/gemm_bf16.json $OUT/pp_r2/gemm_bf16.json | tee $OUT/table_pp.txt
(cd $OUT && tar czf pp.tgz pp_* && rm -rf pp_*)
timeout 200 $X --dtypes bf16 --backends cublaslt,sm90 --out $OUT/suites > $OUT/suites.log 2>&1; echo "suites rc=$?"
python3 tools/diag/suite_summary.py $OUT/suites/gemm_bf16.json
(cd $OUT && tar czf suites.tgz suites suites.log && rm -rf suites suites.log)
