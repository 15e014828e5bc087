#!/usr/bin/env bash
# Session 46, call 1 (no library change, HEAD e685141's bench): the llm suite's M = 256 rows (B N x K),
# where automatic trails cuBLASLt most (0.92-0.97 on five rows), with every 128-row tile we have forced
# beside automatic and cuBLASLt, two rounds. cuBLASLt's tiles there (cublasLt.h ids, its M = our N):
# 8b.qkv 96x128 (our 128x96), 8b.gate_up 256x128 (128x256), 70b.gate_up 176x128 (128x176), 70b.qkv
# 168x128, v3.b 192x128 (128x192), v3.c / v3.d 112x128 (128x112).
set -u
B=${B:?}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
D=bench/results/h100/experiments_s46
P=sm90=sm90_bf16_bf16_
S="cublaslt,sm90"
for t in 128x96x64_s6_c1x1 128x112x64_s7_c2x1 128x128x64_s6_c1x1 128x128x64_s6_c2x1 128x128x64_s6_c1x1_pp 128x176x64_s5_c1x1 128x192x64_s4_c1x1 128x256x64_s4_c1x1 128x256x64_s4_c2x1; do
  S="$S,${P}${t}_bk:none"
done
for r in 1 2; do
  timeout 280 $B/bench/graphgemm_bench --shapes $D/shapes_m256.json --suites m256 --dtypes bf16 --no-peak --backends "$S" --out $OUT/r$r > $OUT/r$r.log 2>&1; echo "r$r rc=$?"
done
for r in 1 2; do echo "== r$r"; python3 bench/results/h100/experiments_s44/us_table.py $OUT/r$r/*.json; done
