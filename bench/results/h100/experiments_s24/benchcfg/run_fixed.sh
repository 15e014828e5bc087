#!/usr/bin/env bash
# Session 24, call 5: the bench with each timed replay right after an untimed replay of the same
# graph (warm_replay.patch on HEAD's bench, packed as build-probe/s24b's bench for this call;
# measured, did not remove the effect, not kept): (1) call 3's configurations again (does cuBLASLt
# still move with the backends beside it?); (2) session 22's final run (the suites with cuBLASLt,
# ours automatic and unsplit and the speed of light; the split-K table; the sol table) on it.
B=${BUILD:-build-probe/s24b}
CFGSET=call5 BUILD=$B bash "$(dirname "$0")/run.sh"
OUT=$OUT BUILD=$B STEPS="sol splitk bench" \
  BENCH_ARGS="--suites square,llm,splitk --dtypes bf16 --backends cublaslt,sm90,sm90:none,sol" BENCH_TIMEOUT=450 \
  tools/device_run.sh
