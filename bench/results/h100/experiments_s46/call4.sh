#!/usr/bin/env bash
# Session 46, call 4 (s46c: a third pair tile, 128x96 in 2x1 clusters, B N x K): M 160-256 x N
# 4864-6336 x K 2048-8192 (shapes_p96.json), where 128x96 pairs fill more SMs in one wave than
# 128x112 pairs: automatic (call 3's rule, which may take the new tile where it has the most CTAs)
# beside the pair tiles and 128x96 forced with programmatic launch, and cuBLASLt, two rounds.
set -u
B=${B:?}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
D=bench/results/h100/experiments_s46
P=sm90=sm90_bf16_bf16_
S="cublaslt,sm90,${P}128x112x64_s7_c2x1_bk+pdl:none,${P}128x96x64_s6_c2x1_bk+pdl:none,${P}128x96x64_s6_c1x1_bk+pdl:none,${P}128x128x64_s6_c1x1_bk+pdl:none"
for r in 1 2; do
  timeout 250 $B/bench/graphgemm_bench --shapes $D/shapes_p96.json --suites p96 --dtypes bf16 --no-peak --backends "$S" --out $OUT/r$r > $OUT/r$r.log 2>&1; echo "r$r rc=$?"
done
cd $OUT && tar czf r.tgz r1 r2 && rm -rf r1 r2
