#!/usr/bin/env bash
# Session 39, call 5: every GPU test (the split-K test's decode cases updated for gemv), then the
# final suite run (the committed bench/results/h100/gemm_bf16.*).
set -u
B=build-probe/s39f
for f in tests/graphgemm_gpu_tests bench/graphgemm_bench; do gunzip -f $B/$f.gz; chmod +x $B/$f; done
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 200 $B/tests/graphgemm_gpu_tests > $OUT/gpu_tests.txt 2>&1; echo "gpu tests rc=$?"; tail -4 $OUT/gpu_tests.txt
timeout 360 $B/bench/graphgemm_bench --suites llm,square,splitk --dtypes bf16 --backends cublaslt,sm90 --out $OUT/final > $OUT/final.log 2>&1; echo "bench rc=$?"
tail -3 $OUT/final.log
