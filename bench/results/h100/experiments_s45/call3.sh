#!/usr/bin/env bash
# Session 45, call 3 (no library change): B N x K at M = 1024 and N = 1536 (deepseek_v3's q_a_proj
# alone, not in the suites: call 1 measured automatic 0.75x cuBLASLt at 1024 x 1536 x 7168; its
# 128x128 tile fills 96 of 132 SMs): every tile that could fill more SMs forced beside automatic and
# cuBLASLt, two rounds.
set -u
B=${B:?}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
f=$B/bench/graphgemm_bench
D=bench/results/h100/experiments_s45
P=sm90=sm90_bf16_bf16_
S="cublaslt,sm90,${P}128x112x64_s7_c2x1_bk:none,${P}128x136x64_s5_c1x1_bk:none,${P}64x128x64_s8_c1x1_bk:none"
S="$S,${P}128x128x64_s6_c1x1_bk:parallel:2:c2,${P}64x256x64_s4_c1x1_pp_bk:none,${P}128x128x64_s6_c1x1_bk:none"
for r in 1 2; do
  timeout 200 $f --shapes $D/shapes_n1536.json --suites n1536 --dtypes bf16 --no-peak --backends "$S" --out $OUT/nk_r$r > $OUT/nk_r$r.log 2>&1; echo "r$r rc=$?"
done
for r in 1 2; do echo "== nk r$r"; python3 bench/results/h100/experiments_s44/us_table.py $OUT/nk_r$r/*.json; done
grep -h "1024x1536x7168\|sm90:" $OUT/nk_r1.log | head -3
