#!/usr/bin/env bash
# Session 41, call 3: the 16-token gemv with 16 warps (gemv16_w16_u2: one CTA an SM, twice the
# weight bytes in flight of gemv16_w8_u2 there). (sm90_gemm_check there later: the carry limit) M = 9 /
# 12 / 16 over N 1024-2112 (N / 16 CTAs fit one an SM) x K 2048-16384 and the llm suite at M = 16:
# automatic (swap-AB there) beside the 16-token kernels forced, one run.
set -u
B=${B:-build-probe/s41c}
for f in bench/graphgemm_bench; do [ -f $B/$f.gz ] && gunzip -f $B/$f.gz; chmod +x $B/$f; done
nvidia-smi --query-gpu=name --format=csv,noheader
G=",sm90=sm90_bf16_bf16_gemv16_w16_u2_bk,sm90=sm90_bf16_bf16_gemv16_w8_u2_bk,sm90=sm90_bf16_bf16_gemv16_w4_u4_bk"
timeout 250 $B/bench/graphgemm_bench --shapes bench/results/h100/experiments_s41/fill_shapes.json --suites gemv16w --dtypes bf16 --no-peak \
  --backends cublaslt,sm90${G} --out $OUT/sweep > $OUT/sweep.log 2>&1; echo "sweep rc=$?"
timeout 100 $B/bench/graphgemm_bench --suites llm --min-m 16 --max-m 16 --dtypes bf16 --no-peak \
  --backends cublaslt,sm90${G} --out $OUT/suite > $OUT/suite.log 2>&1; echo "suite rc=$?"
tail -1 $OUT/sweep.log
