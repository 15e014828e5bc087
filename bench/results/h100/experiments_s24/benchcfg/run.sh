#!/usr/bin/env bash
# Session 24, call 3: which part of the bench's configuration moves cuBLASLt's times? (call 2:
# with backends cublaslt,sm90,sm90:none,sol and the peak run, cuBLASLt ran the splitk shapes ~7%
# slower than with cublaslt,sm90 and --no-peak; ours the same in both). The splitk suite and llm
# M <= 256 under each configuration, one factor at a time, ROUNDS rounds, configurations in turn.
# Call 4: CALL4=1 bash run.sh (the follow-up configurations below).
B=${BUILD:-build-probe/s24b}; ROUNDS=${ROUNDS:-2}
X=$B/bench/graphgemm_bench
[ -f $X.gz ] && gunzip -f $X.gz; chmod +x $X
mkdir -p $OUT/cfg
declare -A cfgs=(
  [A_two_nopeak]="--no-peak --backends cublaslt,sm90"
  [B_two_peak]="--backends cublaslt,sm90"
  [C_sol_nopeak]="--no-peak --backends cublaslt,sm90,sol"
  [D_none_nopeak]="--no-peak --backends cublaslt,sm90,sm90:none"
  [E_four_nopeak]="--no-peak --backends cublaslt,sm90,sm90:none,sol"
  [F_four_peak]="--backends cublaslt,sm90,sm90:none,sol"
  [G_swapped_nopeak]="--no-peak --backends sm90,cublaslt"
  [H_lt_alone_nopeak]="--no-peak --backends cublaslt"
)
# Call 4 (CALL4=1): who runs after the speed of light, and which one.
if [ -n "${CALL4:-}" ]; then
  cfgs=(
    [A_two_nopeak]="--no-peak --backends cublaslt,sm90"
    [C_sol_nopeak]="--no-peak --backends cublaslt,sm90,sol"
    [I_ours_after_sol]="--no-peak --backends cublaslt,sol,sm90"
    [J_bulk_nopeak]="--no-peak --backends cublaslt,sm90,sol=bulk"
    [K_lt_sol]="--no-peak --backends cublaslt,sol"
  )
  for k in B_two_peak D_none_nopeak E_four_nopeak F_four_peak G_swapped_nopeak H_lt_alone_nopeak; do unset "cfgs[$k]"; done
fi
for r in $(seq 1 $ROUNDS); do
  for c in $(printf '%s\n' "${!cfgs[@]}" | sort); do
    timeout 120 $X --suites splitk,llm --max-m 256 --dtypes bf16 ${cfgs[$c]} --out $OUT/cfg/${c}_r$r > $OUT/cfg/${c}_r$r.log 2>&1
    echo "$c round $r rc=$?"
  done
done
cd $OUT && tar czf cfg.tgz cfg && rm -rf cfg
