#!/usr/bin/env bash
# Session 45, call 4: the 128x96 tile (B N x K, s45b: 8 x 16 = 128 tiles at M = 1024, N = 1536) forced
# beside automatic (s45b's cost model takes it on 49 of 1586 grid shapes, llama3_8b.qkv M = 256 among
# them), 128x128 (the previous automatic choice on every row here) and cuBLASLt, over shapes_96.json
# (the N = 1536 rows of call 3 and moved rows), two rounds.
set -u
B=${B:?}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
D=bench/results/h100/experiments_s45
P=sm90=sm90_bf16_bf16_
S="cublaslt,sm90,${P}128x96x64_s6_c1x1_bk:none,${P}128x128x64_s6_c1x1_bk:none"
for r in 1 2; do
  timeout 200 $B/bench/graphgemm_bench --shapes $D/shapes_96.json --suites t96 --dtypes bf16 --no-peak --backends "$S" --out $OUT/r$r > $OUT/r$r.log 2>&1; echo "r$r rc=$?"
done
for r in 1 2; do echo "== r$r"; python3 bench/results/h100/experiments_s44/us_table.py $OUT/r$r/*.json; done
