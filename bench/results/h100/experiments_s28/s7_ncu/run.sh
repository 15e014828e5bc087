#!/usr/bin/env bash
# Session 28, call 4: why a 7th stage made every 128x112 kernel slower (calls 1 and 3: s7 / s6 1.04-1.28x
# the time on llm M = 256): ncu --set full on one eager launch of the c1x2 tile in 6 and in 7 stages
# at deepseek_v3.c 256x7168x16384 (build-probe/s28b), details page and source page (SASS) as CSV.
B=${BUILD:-build-probe/s28b}/bench/graphgemm_bench
[ -f $B.gz ] && gunzip -f $B.gz; chmod +x $B
mkdir -p $OUT/n
for s in 6 7; do
  K=sm90_bf16_bf16_128x112x64_s${s}_c1x2_bk
  timeout 200 ncu --set full --import-source no --clock-control none --kernel-name regex:sm90_gemm --launch-skip 2 --launch-count 1 \
    -f -o $OUT/n/s$s $B --shape 256x7168x16384 --backends sm90=$K:none --dtypes bf16 --batches 1 --no-peak --out $OUT/n/b$s > $OUT/n/s$s.log 2>&1
  echo "s$s ncu rc=$?"
  ncu --import $OUT/n/s$s.ncu-rep --page details --csv > $OUT/n/s$s.details.csv 2>&1
  ncu --import $OUT/n/s$s.ncu-rep --page source --csv --print-source sass > $OUT/n/s$s.source.csv 2>&1
  rm -f $OUT/n/s$s.ncu-rep
done
cd $OUT && tar czf n.tgz n && rm -rf n
