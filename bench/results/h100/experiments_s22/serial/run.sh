#!/usr/bin/env bash
# Session 22, call 9: the serial split-K refit (automatic serial in 2 slices of the 64x64 tile within
# half the SMs; the serial cost term refitted, which also moves serial:auto's slice counts): each
# moved choice, old and new forced in one binary (4fe6aba's, build-probe/s22f) beside automatic and
# cuBLASLt, two rounds.
B=${B:-build-probe/s22f/bench/graphgemm_bench}
[ -f $B.gz ] && gunzip -f $B.gz; chmod +x $B
B=$B OUT=$OUT bash bench/results/h100/experiments_s22/offline_common/verify_moves.sh serial bench/results/h100/experiments_s22/serial/verify.txt
# Then the splitk suite and llm M <= 256 with 4fe6aba's bench (old) and this change's (new,
# build-probe/s22s), alternating, two rounds.
N=build-probe/s22s/bench/graphgemm_bench
[ -f $N.gz ] && gunzip -f $N.gz; chmod +x $N
for r in 1 2; do
  for v in old new; do
    X=$B; [ $v = new ] && X=$N
    timeout 120 $X --suites splitk,llm --max-m 256 --dtypes bf16 --backends cublaslt,sm90 --out $OUT/suite_${v}_r$r > $OUT/suite_${v}_r$r.log 2>&1
    echo "suite $v round $r rc $?"
  done
done
cd $OUT && tar czf serial.tgz serial_* suite_* && rm -rf serial_* suite_*
