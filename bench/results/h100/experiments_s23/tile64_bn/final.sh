#!/usr/bin/env bash
# Session 23, call 5: 14eea7b's automatic choice (build-probe/s23c) against fee70d7's (build-probe/s22g)
# on every shape whose choice moved (final_nk.txt, final_kn.txt), the two binaries alternating, one round.
N=${N:-build-probe/s23c}; O=${O:-build-probe/s22g}; D=bench/results/h100/experiments_s23/tile64_bn
for f in $N/bench/graphgemm_bench $O/bench/graphgemm_bench; do [ -f $f.gz ] && gunzip -f $f.gz; chmod +x $f; done
for lay in nk kn; do
  grep -v '^#' $D/final_$lay.txt | while read shape old new; do
    for v in old new; do
      X=$N; [ $v = old ] && X=$O
      timeout 60 $X/bench/graphgemm_bench --shape $shape --dtypes bf16 --no-peak --b-layout $lay --backends sm90 \
        --out $OUT/f_${lay}_${shape}_$v > /dev/null 2>&1
    done
  done
done
cd $OUT && tar czf final.tgz f_* && rm -rf f_*
