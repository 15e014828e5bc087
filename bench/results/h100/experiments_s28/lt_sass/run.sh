#!/usr/bin/env bash
# Session 28, call 2 (no library change): cuBLASLt's M = 256 kernel (nvjet 112x128_64x7_2x1, 7 stages)
# at deepseek_v3.c 256x7168x16384, ncu --set full on one eager launch, its source page (SASS per
# instruction with warp-state samples) as CSV, to read how it streams B (TMA instructions and
# their cache hints, warps, barrier waits) beside ours (experiments_s27/stalls/st.tgz). Our 7-stage
# 128x112 pair (call 1) ran slower than our 6-stage one, where cuBLASLt runs 7.
B=${BUILD:-build-probe/s27b}/bench/graphgemm_bench
[ -f $B.gz ] && gunzip -f $B.gz; chmod +x $B
mkdir -p $OUT/lt
timeout 200 ncu --set full --import-source no --clock-control none --kernel-name regex:nvjet --launch-skip 2 --launch-count 1 \
  -f -o $OUT/lt/cublaslt $B --shape 256x7168x16384 --backends cublaslt --dtypes bf16 --batches 1 --no-peak --out $OUT/lt/b > $OUT/lt/ncu.log 2>&1
echo "ncu rc=$?"
ncu --import $OUT/lt/cublaslt.ncu-rep --page source --csv --print-source sass > $OUT/lt/cublaslt.source.csv 2>&1
echo "source rows $(wc -l < $OUT/lt/cublaslt.source.csv)"
rm -f $OUT/lt/cublaslt.ncu-rep
cd $OUT && tar czf lt.tgz lt && rm -rf lt
