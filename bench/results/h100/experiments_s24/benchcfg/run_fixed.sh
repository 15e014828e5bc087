#!/usr/bin/env bash
# Session 24, call 5: the bench with each timed replay right after an untimed replay of the same
# graph (warm_replay.patch on HEAD's bench; measured, did not remove the effect, not kept)
# (build-probe/s24b: HEAD's library, that bench): (1) the configurations of calls 3-4 again
# (does cuBLASLt still move with the backends beside it?), ROUNDS rounds; (2) session 22's final run
# (the suites with cuBLASLt, ours automatic and unsplit and the speed of light; the split-K table;
# the sol table) on it.
B=${BUILD:-build-probe/s24b}; ROUNDS=${ROUNDS:-2}
X=$B/bench/graphgemm_bench
[ -f $X.gz ] && gunzip -f $X.gz; chmod +x $X
mkdir -p $OUT/cfg
declare -A cfgs=(
  [A_two_nopeak]="--no-peak --backends cublaslt,sm90"
  [C_sol_nopeak]="--no-peak --backends cublaslt,sm90,sol"
  [E_four_nopeak]="--no-peak --backends cublaslt,sm90,sm90:none,sol"
  [F_four_peak]="--backends cublaslt,sm90,sm90:none,sol"
)
for r in $(seq 1 $ROUNDS); do
  for c in $(printf '%s\n' "${!cfgs[@]}" | sort); do
    timeout 150 $X --suites splitk,llm --max-m 256 --dtypes bf16 ${cfgs[$c]} --out $OUT/cfg/${c}_r$r > $OUT/cfg/${c}_r$r.log 2>&1
    echo "$c round $r rc=$?"
  done
done
(cd $OUT && tar czf cfg.tgz cfg && rm -rf cfg)
OUT=$OUT BUILD=$B STEPS="sol splitk bench" \
  BENCH_ARGS="--suites square,llm,splitk --dtypes bf16 --backends cublaslt,sm90,sm90:none,sol" BENCH_TIMEOUT=450 \
  tools/device_run.sh
