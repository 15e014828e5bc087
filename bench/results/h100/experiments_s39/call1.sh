#!/usr/bin/env bash
# Session 39, call 1: the gemv experiment instances' correctness (sm90_gemm_check --filter=gemv) and
# the llm / splitk decode shapes (M <= 16) with cuBLASLt, automatic sm90, sol and each gemv instance.
set -u
B=${B:-build-probe/s39a}
for f in tools/sm90_gemm_check bench/graphgemm_bench; do [ -f $B/$f.gz ] && gunzip -f $B/$f.gz; done
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
if [ -f $B/tools/sm90_gemm_check ]; then
  chmod +x $B/tools/sm90_gemm_check
  $B/tools/sm90_gemm_check --filter=gemv > $OUT/check.txt 2>&1; echo "check rc=$?"
  grep -E "gemv|FAIL" $OUT/check.txt | head -40
fi
chmod +x $B/bench/graphgemm_bench
G=""
for k in ${GEMVS:-gemv16_w8_u2 gemv16_w16_u2 gemv16_w4_u4 gemv8_w8_u4 gemv8_w8_u2 gemv8_w16_u2 gemv8_w4_u4}; do G="$G,sm90=sm90_bf16_bf16_${k}_bk"; done
timeout 420 $B/bench/graphgemm_bench --suites llm,splitk --max-m 16 --dtypes bf16 --no-peak \
  --backends cublaslt,sm90,sol${G} --out $OUT/bench > $OUT/bench.log 2>&1; echo "bench rc=$?"
tail -5 $OUT/bench.log
