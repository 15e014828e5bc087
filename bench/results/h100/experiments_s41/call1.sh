#!/usr/bin/env bash
# Session 41, call 1: the 64x64 tile where it fills the last wave >= 1.25x fuller than 64x128 at
# K <= 3072 (kSmallTileFill*): automatic (new rule) beside both tiles forced, B N x K (M = 33 / 48 /
# 64) and B K x N (M = 24 / 64), one round each.
set -u
B=${B:-build-probe/s41a}
[ -f $B/bench/graphgemm_bench.gz ] && gunzip -f $B/bench/graphgemm_bench.gz; chmod +x $B/bench/graphgemm_bench
nvidia-smi --query-gpu=name --format=csv,noheader
S=bench/results/h100/experiments_s41/fill_shapes.json
for L in nk kn; do
  suite=fill; bs=bk; [ $L = kn ] && { suite=fillkn; bs=bn; }
  timeout 280 $B/bench/graphgemm_bench --shapes $S --suites $suite --dtypes bf16 --no-peak --b-layout $L \
    --backends cublaslt,sm90,sm90=sm90_bf16_bf16_64x64x64_s13_c1x1_$bs,sm90=sm90_bf16_bf16_64x128x64_s8_c1x1_$bs \
    --out $OUT/$L > $OUT/$L.log 2>&1; echo "$L bench rc=$?"
  tail -1 $OUT/$L.log
done
