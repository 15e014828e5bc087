#!/usr/bin/env bash
# Session 45, call 2 (no library change): cuBLASLt's kernel at 1024 x 2112 x 7168, B K x N
# (nvjet_sm90_tst_64x256_64x5_1x2_h_bz_NNN, 89% tensor-pipe active against our wide tile's 62%,
# call 1) and our wide tile (256x64 s5), ncu --set full on one eager launch each, the source page
# (SASS per instruction with warp-state samples) as CSV: how its two consumer warpgroups split the
# 64 x 256 tile and what its main loop issues.
B=${B:?}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
f=$B/bench/graphgemm_bench
mkdir -p $OUT/lt
for be in cublaslt sm90=sm90_bf16_bf16_256x64x64_s5_c1x1_sw_bn:none; do
  tag=$([ $be = cublaslt ] && echo cublaslt || echo wide_s5)
  timeout 200 ncu --set full --import-source no --clock-control none --kernel-name regex:'nvjet|sm90' --launch-skip 2 --launch-count 1 \
    -f -o $OUT/lt/$tag $f --shape 1024x2112x7168 --b-layout kn --backends "$be" --dtypes bf16 --batches 1 --no-peak --out $OUT/lt/b_$tag > $OUT/lt/ncu_$tag.log 2>&1
  echo "ncu $tag rc=$?"
  ncu --import $OUT/lt/$tag.ncu-rep --page source --csv --print-source sass > $OUT/lt/$tag.source.csv 2>&1
  ncu --import $OUT/lt/$tag.ncu-rep --page details --csv > $OUT/lt/$tag.details.csv 2>&1
  echo "source rows $(wc -l < $OUT/lt/$tag.source.csv)"
  rm -f $OUT/lt/$tag.ncu-rep
done
cd $OUT && tar czf lt.tgz lt && rm -rf lt
