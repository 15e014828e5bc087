#!/usr/bin/env bash
# Session 14: a 64x64 tile (B N x K) forced over llm M <= 256, against the automatic choice of the
# new build (sm90) and of b8ce75b (old/), each with cuBLASLt in its own run; then correctness.
set -u
d=build-probe/s14b
find $d -name '*.gz' -exec gunzip -f {} +; chmod +x $d/*/*
k=sm90=sm90_bf16_bf16_64x64x64_s13_c1x1
$d/old/graphgemm_bench --suites llm,splitk --max-m 256 --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/old > $OUT/old.log 2>&1 || echo "old failed"
$d/bench/graphgemm_bench --suites llm,splitk --max-m 256 --dtypes bf16 --no-peak --backends cublaslt,sm90,$k,$k:parallel:2:c1,$k:parallel:2:c2,$k:parallel:4:c4,$k:parallel:3:c1 --out $OUT/new > $OUT/new.log 2>&1 || echo "new failed"
python3 tools/diag/compare_bench.py $OUT/new/gemm_bf16.json $OUT/old/gemm_bf16.json --threshold 0.03 | tail -25
timeout 300 $d/tests/graphgemm_gpu_tests > $OUT/gtest.log 2>&1; echo "gtest rc $?"; tail -3 $OUT/gtest.log
timeout 300 $d/tools/sm90_gemm_check > $OUT/check.log 2>&1; echo "check rc $?"; tail -3 $OUT/check.log
cd $OUT && tar czf res.tgz old new && rm -rf old new
