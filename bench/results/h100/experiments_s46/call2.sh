#!/usr/bin/env bash
# Session 46, call 2 (no library change, HEAD e685141's bench): where do the pair tiles (128x112 /
# 128x128 in 2x1 clusters) beat automatic at 128 < M <= 256 beyond today's rule (one wave of clusters,
# K >= 8192, replacing 128x128)? Call 1 found 128x112 c2x1 faster than automatic at 256x6144x4096
# (one wave, K = 4096: 0.94 against 0.92x cuBLASLt) and 256x28672x4096 (3.9 waves: 1.04 against 0.99).
# Grid: M 160-256, N 3072-28672, K 2048-14336 (shapes_pair.json, 144 shapes), automatic beside both
# pair tiles forced and cuBLASLt, two rounds.
set -u
B=${B:?}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
D=bench/results/h100/experiments_s46
P=sm90=sm90_bf16_bf16_
S="cublaslt,sm90,${P}128x112x64_s7_c2x1_bk:none,${P}128x128x64_s6_c2x1_bk:none"
for r in 1 2; do
  timeout 290 $B/bench/graphgemm_bench --shapes $D/shapes_pair.json --suites pair --dtypes bf16 --no-peak --backends "$S" --out $OUT/r$r > $OUT/r$r.log 2>&1; echo "r$r rc=$?"
done
cd $OUT && tar czf r.tgz r1 r2 && rm -rf r1 r2
