#!/usr/bin/env bash
# Session 22, call 11: the cluster refit's moves with B stored K x N (the "_bn" kernels; bench
# --b-layout kn, added this session), old and new choice forced in one binary (5dd8256's library
# with the bench option, build-probe/s22k) beside automatic and cuBLASLt, two rounds.
B=${B:-build-probe/s22k/bench/graphgemm_bench}
[ -f $B.gz ] && gunzip -f $B.gz; chmod +x $B
for r in 1 2; do
  grep -v '^#' bench/results/h100/experiments_s22/cluster/verify_kn.txt | while read shape old new; do
    timeout 60 $B --shape $shape --dtypes bf16 --no-peak --b-layout kn --out $OUT/kn_${shape}_r$r \
      --backends "cublaslt,sm90,sm90=sm90_bf16_bf16_$old,sm90=sm90_bf16_bf16_$new" > $OUT/kn_${shape}_r$r.log 2>&1
    echo "round $r $shape rc $?"
  done
done
cd $OUT && tar czf kn.tgz kn_* && rm -rf kn_*
