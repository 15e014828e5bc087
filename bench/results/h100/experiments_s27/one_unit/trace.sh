#!/usr/bin/env bash
# Session 27, call 5: one work unit per CTA (GemmConfig OneUnit, "_1u"): the epilogue staged in the
# consumer warpgroups' own A rows of stages 0 / 1, so the 32 KB of separate D buffers hold one more
# stage (128x128 7, 128x112 7, 64x128 9). Call 4 (kb_skew/): at M = 256 the tensor pipe idles
# 17-26% of the main loop and L2 read bandwidth is not what binds; cuBLASLt's kernel there has 7
# stages of 112x128. Prediction: one-wave, long-K shapes 2-5% faster with the 7th stage (more bytes
# in flight per SM); short K unchanged; "128s6u" (one unit, 6 stages) the same as "128" (the
# aliasing alone changes nothing). sm90_trace (trace build: timings of a CUDA graph of launches).
T=${TRACE:-build-probe/s27t/sm90_trace}
mkdir -p $OUT/u
pairs="256x7168x16384:128,128s6u,128s7,128x112c2x1,128x112c2x1s7
256x7168x2048:128,128s7,128x112c2x1,128x112c2x1s7
256x6144x4096:128,128s7
256x8192x8192:128,128s7,128c2x1,128c2x1s7
256x8192x28672:128,128s7,128c2x1,128c2x1s7
128x7168x16384:64,64s9
256x4096x14336:64,64s9
128x6144x4096:64,64s9"
for r in 1 2 3; do
  for line in $pairs; do
    sh=${line%%:*}; cs=${line#*:}
    for c in ${cs//,/ }; do
      f=$OUT/u/r${r}_${sh}_$c.txt
      $T ${sh//x/ } $c > $f 2>&1
      echo "r$r $sh $c rc=$? $(grep -o 'grid [0-9]* CTAs' $f) $(grep -o 'median [0-9.]* us' $f) $(grep 'last main loop done' $f | awk '{print "loop done med", $(NF-2), "max", $(NF-1)}')"
    done
  done
done
cd $OUT && tar czf u.tgz u && rm -rf u
