#!/usr/bin/env bash
# Session 25, call 2: why the 128x128 kernel in 1x2 clusters (A multicast) runs 10-22% slower than
# the same tile alone on compute-bound squares (call 1: 8192^3 1908 against 1671 µs) while 128x256
# in 2x1 clusters (B multicast) is within 1% of its twin. ncu, full set, one eager launch each
# (clocks unlocked, caches flushed), the details page as CSV; RAW=1 (call 3): the raw page (every
# metric) instead, of the 128x128 pair only.
B=${BUILD:-build-probe/s25a}/bench/graphgemm_bench
[ -f $B.gz ] && gunzip -f $B.gz; chmod +x $B
K=sm90_bf16_bf16
mkdir -p $OUT/ncu
for s in 4096x4096x4096 256x7168x16384; do
  kernels="128x128x64_s6_c1x1_bk 128x128x64_s6_c1x2_bk 128x256x64_s4_c1x1_bk 128x256x64_s4_c2x1_bk"
  [ "${RAW:-0}" = 1 ] && kernels="128x128x64_s6_c1x1_bk 128x128x64_s6_c1x2_bk"
  for k in $kernels; do
    tag=${s}_$k
    timeout 200 ncu --set full --clock-control none --kernel-name regex:gemm --launch-skip 1 --launch-count 1 \
      -o $OUT/ncu/$tag $B --shape $s --backends sm90=${K}_$k:none --dtypes bf16 --batches 1 --no-peak \
      --out $OUT/ncu/bench_$tag > $OUT/ncu/$tag.log 2>&1
    ncu --import $OUT/ncu/$tag.ncu-rep --csv --page $([ "${RAW:-0}" = 1 ] && echo raw || echo details) > $OUT/ncu/$tag.csv 2>&1
    echo "$tag rc=$? $(grep -c . $OUT/ncu/$tag.csv)"
    rm -f $OUT/ncu/$tag.ncu-rep  # too large to bring back
  done
done
cd $OUT && tar czf ncu.tgz ncu && rm -rf ncu
