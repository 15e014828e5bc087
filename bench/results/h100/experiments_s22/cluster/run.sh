#!/usr/bin/env bash
# Session 22, call 10: the 128x128 cluster-sum refit (a floor of 8.5 us + the busiest GPC's bytes
# at 0.97 TB/s on 8 slices in clusters of 8): each moved choice (B N x K), old and new forced in
# one binary (4fe6aba's, build-probe/s22f) beside automatic and cuBLASLt, two rounds; the last line
# (128x1024x16384) is an unchanged control.
B=${B:-build-probe/s22f/bench/graphgemm_bench}
[ -f $B.gz ] && gunzip -f $B.gz; chmod +x $B
for r in 1 2; do
  grep -v '^#' bench/results/h100/experiments_s22/cluster/verify.txt | while read shape old new; do
    timeout 60 $B --shape $shape --dtypes bf16 --no-peak --out $OUT/cluster_${shape}_r$r \
      --backends "cublaslt,sm90,sm90=sm90_bf16_bf16_$old,sm90=sm90_bf16_bf16_$new" > $OUT/cluster_${shape}_r$r.log 2>&1
    echo "round $r $shape rc $?"
  done
done
cd $OUT && tar czf cluster.tgz cluster_* && rm -rf cluster_*
