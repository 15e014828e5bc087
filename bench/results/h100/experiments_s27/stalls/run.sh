#!/usr/bin/env bash
# Session 27, call 10: where the warps wait at deepseek_v3.c M = 256 (256x7168x16384), ours (the pair
# tile 128x112 in 2x1 clusters, automatic since 05051b6) against cuBLASLt (nvjet 112x128 2x1): ncu
# --set full on one eager launch each (clocks unlocked), the details page as CSV, and our kernel's
# source page (per SASS instruction: warp-state samples). For the next session (issue 3).
B=${BUILD:-build-probe/s27b}/bench/graphgemm_bench
[ -f $B.gz ] && gunzip -f $B.gz; chmod +x $B
mkdir -p $OUT/st
for which in sm90 cublaslt; do
  rx=sm90_gemm; [ $which = cublaslt ] && rx=nvjet
  timeout 200 ncu --set full --import-source no --clock-control none --kernel-name regex:$rx --launch-skip 2 --launch-count 1 \
    -f -o $OUT/st/$which $B --shape 256x7168x16384 --backends $which --dtypes bf16 --batches 1 --no-peak --out $OUT/st/b_$which > $OUT/st/$which.log 2>&1
  echo "$which ncu rc=$?"
  ncu --import $OUT/st/$which.ncu-rep --page details --csv > $OUT/st/$which.details.csv 2>&1
  [ $which = sm90 ] && ncu --import $OUT/st/$which.ncu-rep --page source --csv --print-source sass > $OUT/st/$which.source.csv 2>&1
  rm -f $OUT/st/$which.ncu-rep
done
cd $OUT && tar czf st.tgz st && rm -rf st
