#!/usr/bin/env bash
# Session 40, call 1: the gemv ring variants (cp.async through shared memory, sm90_gemv.cuh "The
# ring"): correctness (sm90_gemm_check --filter=gemv) and the llm / splitk decode shapes at M = 1 and
# 16 with cuBLASLt, automatic sm90, sol and each variant forced by name; M = 8 on six shapes.
set -u
B=${B:-build-probe/s40a}
for f in tools/sm90_gemm_check bench/graphgemm_bench; do [ -f $B/$f.gz ] && gunzip -f $B/$f.gz; done
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
chmod +x $B/tools/sm90_gemm_check $B/bench/graphgemm_bench
timeout 200 $B/tools/sm90_gemm_check --filter=gemv > $OUT/check.txt 2>&1; echo "check rc=$?"
grep -E "FAIL|instances|failures" $OUT/check.txt | tail -5
G=""
for k in ${GEMVS:-gemv16_w8_u1_r4 gemv16_w8_u1_r6 gemv16_w4_u2_r4 gemv16_w16_u1_r3 gemv16_w4_u1_r8 gemv16_w8_u2 gemv16_w4_u4 gemv8_w8_u1_r6 gemv8_w16_u1_r4 gemv8_w4_u1_r8 gemv8_w8_u2 gemv8_w16_u2}; do G="$G,sm90=sm90_bf16_bf16_${k}_bk"; done
timeout 300 $B/bench/graphgemm_bench --suites llm,splitk --max-m 16 --dtypes bf16 --no-peak \
  --backends cublaslt,sm90,sol${G} --out $OUT/bench > $OUT/bench.log 2>&1; echo "bench rc=$?"
for s in 8x4096x4096 8x6144x4096 8x2112x7168 8x7168x2048 8x4096x14336 8x8192x8192; do
  timeout 60 $B/bench/graphgemm_bench --shape $s --dtypes bf16 --no-peak --backends cublaslt,sm90${G} --out $OUT/m8_$s >> $OUT/m8.log 2>&1 || echo "$s rc=$?"
done
tail -3 $OUT/bench.log
