#!/usr/bin/env bash
# Session 25, call 6: HEAD's build (build-probe/s25c: the clustered producers' CTA-scope wait) — GPU
# tests, sm90_gemm_check and the suites without the speed of light in the run (session 24), through
# tools/device_run.sh (results/h100/gemm_bf16.*, plot); then ROUNDS - 1 more suite rounds.
B=${BUILD:-build-probe/s25c}; ROUNDS=${ROUNDS:-2}
ARGS="--suites square,llm,splitk --dtypes bf16 --backends cublaslt,sm90,sm90:none"
OUT=$OUT BUILD=$B STEPS="test check bench" BENCH_ARGS="$ARGS" BENCH_TIMEOUT=450 tools/device_run.sh
mkdir -p $OUT/rounds
for r in $(seq 2 $ROUNDS); do
  timeout 300 $B/bench/graphgemm_bench $ARGS --out $OUT/rounds/r$r > $OUT/rounds/r$r.log 2>&1
  echo "round $r rc=$?"
done
(cd $OUT && tar czf rounds.tgz rounds && rm -rf rounds)
