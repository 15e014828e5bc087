#!/usr/bin/env bash
# Session 24, call 6: the suites on HEAD's build (build-probe/s24b) without the speed of light in
# the run (calls 3-5: cuBLASLt runs the splitk shapes 4-6% slower, llm M <= 256 ~0.5-1% slower, in
# a run that also times `sol`; ours does not move), ROUNDS rounds; the first round through
# tools/device_run.sh (results/h100/gemm_bf16.*, plot; STEPS="test check bench" adds its GPU test
# and kernel check steps, session 25).
B=${BUILD:-build-probe/s24b}; ROUNDS=${ROUNDS:-2}
ARGS="--suites square,llm,splitk --dtypes bf16 --backends cublaslt,sm90,sm90:none"
OUT=$OUT BUILD=$B STEPS="${STEPS:-bench}" BENCH_ARGS="$ARGS" BENCH_TIMEOUT=450 tools/device_run.sh
mkdir -p $OUT/rounds
for r in $(seq 2 $ROUNDS); do
  timeout 300 $B/bench/graphgemm_bench $ARGS --out $OUT/rounds/r$r > $OUT/rounds/r$r.log 2>&1
  echo "round $r rc=$?"
done
(cd $OUT && tar czf rounds.tgz rounds && rm -rf rounds)
