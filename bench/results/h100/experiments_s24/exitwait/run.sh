#!/usr/bin/env bash
# Session 24, call 1: the CTAs' last wait for their TMA stores' reads only (build-probe/s24a) against
# the wait for their writes (build-probe/s23c = 14eea7b's bench). The new build's GPU tests
# (tools/device_run.sh; the pack has room for the tests and the two benches only), then the suites (square, llm, splitk;
# cuBLASLt beside ours in every run) with the two benches alternating, ROUNDS rounds.
N=${N:-build-probe/s24a}; O=${O:-build-probe/s23c}; ROUNDS=${ROUNDS:-3}
for f in $N/bench/graphgemm_bench $O/bench/graphgemm_bench; do [ -f $f.gz ] && gunzip -f $f.gz; chmod +x $f; done
OUT=$OUT BUILD=$N STEPS="${STEPS:-test}" tools/device_run.sh
mkdir -p $OUT/ab
for r in $(seq 1 $ROUNDS); do
  for v in new old; do
    X=$N; [ $v = old ] && X=$O
    timeout 120 $X/bench/graphgemm_bench --suites square,llm,splitk --dtypes bf16 --no-peak \
      --backends cublaslt,sm90 --out $OUT/ab/${v}_r$r > $OUT/ab/${v}_r$r.log 2>&1
    echo "round $r $v rc=$?"
  done
done
cd $OUT && tar czf ab.tgz ab && rm -rf ab
