#!/usr/bin/env bash
# Session 40, call 2: M = 12 / 16 over N in {2048 .. 28672} x K in {1536 .. 8192} (sweep_shapes.json):
# cuBLASLt, automatic (swap-AB at M > 8) and the two 16-token gemv kernels forced by name; then the
# llm / splitk suites at M <= 16 the same way (sm90_gemm_check on the gemv rows first).
set -u
B=${B:-build-probe/s40b}
for f in tools/sm90_gemm_check bench/graphgemm_bench; do [ -f $B/$f.gz ] && gunzip -f $B/$f.gz; done
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
chmod +x $B/tools/sm90_gemm_check $B/bench/graphgemm_bench
timeout 200 $B/tools/sm90_gemm_check --filter=gemv > $OUT/check.txt 2>&1; echo "check rc=$?"
grep -cE "gemv" $OUT/check.txt; awk '$3 != "0" && /gemv/' $OUT/check.txt | head
G=",sm90=sm90_bf16_bf16_gemv16_w8_u2_bk,sm90=sm90_bf16_bf16_gemv16_w4_u4_bk"
timeout 330 $B/bench/graphgemm_bench --shapes bench/results/h100/experiments_s40/sweep_shapes.json --suites sweep --dtypes bf16 --no-peak \
  --backends cublaslt,sm90${G} --out $OUT/sweep > $OUT/sweep.log 2>&1; echo "sweep rc=$?"
timeout 120 $B/bench/graphgemm_bench --suites llm,splitk --max-m 16 --dtypes bf16 --no-peak \
  --backends cublaslt,sm90,sol${G} --out $OUT/suite > $OUT/suite.log 2>&1; echo "suite rc=$?"
tail -2 $OUT/sweep.log
