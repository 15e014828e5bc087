#!/usr/bin/env bash
# Session 40, call 8: M = 64 / 128 over N 4096-28672 x K 1024-4096 (sweep64_shapes.json): automatic
# against the 64x64, 64x128 and 128x128 tiles forced by name (call 7: the 64x64 tile ahead of
# automatic on deepseek_v3.b, 24576 x 1536, at M = 64 / 128).
set -u
B=${B:-build-probe/s40d}
[ -f $B/bench/graphgemm_bench.gz ] && gunzip -f $B/bench/graphgemm_bench.gz; chmod +x $B/bench/graphgemm_bench
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 400 $B/bench/graphgemm_bench --shapes bench/results/h100/experiments_s40/sweep64_shapes.json --suites sweep64 --dtypes bf16 --no-peak \
  --backends cublaslt,sm90,sm90=sm90_bf16_bf16_64x64x64_s13_c1x1_bk,sm90=sm90_bf16_bf16_64x128x64_s8_c1x1_bk,sm90=sm90_bf16_bf16_128x128x64_s6_c1x1_bk \
  --out $OUT/sweep64 > $OUT/sweep64.log 2>&1; echo "bench rc=$?"
tail -1 $OUT/sweep64.log
