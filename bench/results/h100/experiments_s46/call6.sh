#!/usr/bin/env bash
# Session 46, call 6 (s46b, data for a later rule, no library change): the unclustered 128x96 tile at
# M = 192-256 with short K (call 4: 0.91-0.97x 128x128's time at N 4864-5120, K = 2048), forced with
# programmatic launch beside automatic and cuBLASLt over M 192-256 x N 3584-6144 x K 1024-3072
# (shapes_n96.json), two rounds.
set -u
B=${B:?}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
D=bench/results/h100/experiments_s46
P=sm90=sm90_bf16_bf16_
S="cublaslt,sm90,${P}128x96x64_s6_c1x1_bk+pdl:none"
for r in 1 2; do
  timeout 250 $B/bench/graphgemm_bench --shapes $D/shapes_n96.json --suites n96 --dtypes bf16 --no-peak --backends "$S" --out $OUT/r$r > $OUT/r$r.log 2>&1; echo "r$r rc=$?"
done
cd $OUT && tar czf r.tgz r1 r2 && rm -rf r1 r2
