#!/usr/bin/env bash
# Session 23, call 1 (issue 6): clusters-of-4 and clusters-of-8 cells of the 128x128 and 64x128 tiles on the
# shapes of shapes.txt, B stored K x N and N x K, beside the automatic choice (one round), for the cluster-sum
# refit; then (issue 3) 128x128 slices summed in clusters of 2 on llm M = 128 / 256 shapes.
B=${B:-build-probe/s22g/bench/graphgemm_bench}
[ -f $B.gz ] && gunzip -f $B.gz; chmod +x $B
D=bench/results/h100/experiments_s23/c4cells
for lay in kn nk; do
  s=bn; [ $lay = nk ] && s=bk
  for shape in $(grep -v '^#' $D/shapes.txt); do
    timeout 60 $B --shape $shape --dtypes bf16 --no-peak --b-layout $lay --out $OUT/c4_${lay}_$shape \
      --backends "sm90,sm90=sm90_bf16_bf16_128x128x64_s6_c1x1_$s:parallel:4:c4,sm90=sm90_bf16_bf16_128x128x64_s6_c1x1_$s:parallel:8:c8,sm90=sm90_bf16_bf16_64x128x64_s8_c1x1_$s:parallel:4:c4,sm90=sm90_bf16_bf16_64x128x64_s8_c1x1_$s:parallel:8:c8" \
      > $OUT/c4_${lay}_$shape.log 2>&1
    echo "$lay $shape rc $?"
  done
done
for shape in 256x4096x4096 256x6144x4096 256x7168x2048 256x2112x7168 128x2112x7168 256x8192x8192 256x7168x16384 128x4096x4096 128x7168x2048; do
  timeout 90 $B --shape $shape --dtypes bf16 --no-peak --out $OUT/m256_$shape \
    --backends "cublaslt,sm90,sm90=sm90_bf16_bf16_128x128x64_s6_c1x1_bk:parallel:2:c2,sm90=sm90_bf16_bf16_128x128x64_s6_c1x1_bk:parallel:2:c1,sm90=sm90_bf16_bf16_64x128x64_s8_c1x1_bk:parallel:2:c2" \
    > $OUT/m256_$shape.log 2>&1
  echo "m256 $shape rc $?"
done
cd $OUT && tar czf call1.tgz c4_* m256_* && rm -rf c4_* m256_*
