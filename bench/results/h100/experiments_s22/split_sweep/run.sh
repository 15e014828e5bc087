#!/usr/bin/env bash
# Session 22, call 8: mid-sized K-heavy GEMMs off the suite, where cuBLASLt ran 10-25% ahead of
# automatic in call 5 (and two suite neighbours), every split tile against slice counts, through
# the workspace and summed in clusters of 8, beside automatic, unsplit and cuBLASLt: data for the
# next refit of the split model. 4fe6aba's bench (build-probe/s22f), one round.
B=${B:-build-probe/s22f/bench/graphgemm_bench}
[ -f $B.gz ] && gunzip -f $B.gz; chmod +x $B
T64=sm90=sm90_bf16_bf16_64x64x64_s13_c1x1_bk T64N=sm90=sm90_bf16_bf16_64x128x64_s8_c1x1_bk
T128=sm90=sm90_bf16_bf16_128x128x64_s6_c1x1_bk
be=cublaslt,sm90,sm90:none
for t in $T64 $T64N $T128; do
  be+=",$t:none"
  for s in 2 3 4 6 8 12 16 24 32; do be+=",$t:parallel:$s:c1"; done
  [ $t != $T64 ] && for s in 8 16; do be+=",$t:parallel:$s:c8"; done
  for s in 2 4; do be+=",$t:serial:$s"; done
done
for shape in 512x512x16384 320x1024x32768 256x1024x32768 384x512x32768 192x384x4096 128x384x8192 \
             320x128x4096 192x1024x65536 128x256x65536 512x256x8192 256x512x4096 1024x1024x16384; do
  timeout 120 $B --shape $shape --dtypes bf16 --no-peak --out $OUT/sweep_$shape --backends "$be" > $OUT/sweep_$shape.log 2>&1
  echo "$shape rc $?"
done
cd $OUT && tar czf sweep.tgz sweep_* && rm -rf sweep_*
