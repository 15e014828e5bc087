#!/usr/bin/env bash
# Session 24, calls 3-5: which part of the bench's configuration moves cuBLASLt's times? (call 2:
# with backends cublaslt,sm90,sm90:none,sol and the peak run, cuBLASLt ran the splitk shapes ~7%
# slower than with cublaslt,sm90 and --no-peak; ours the same in both). The splitk suite and llm
# M <= 256 under each configuration, one factor at a time, ROUNDS rounds, configurations in turn.
#   call 3: bash run.sh;  call 4: CFGSET=call4 bash run.sh (who runs after the speed of light, which
#   one);  call 5: run_fixed.sh (CFGSET=call5, with the bench of warm_replay.patch)
B=${BUILD:-build-probe/s24b}; ROUNDS=${ROUNDS:-2}
X=$B/bench/graphgemm_bench
[ -f $X.gz ] && gunzip -f $X.gz; chmod +x $X
mkdir -p $OUT/cfg
declare -A all=(
  [A_two_nopeak]="--no-peak --backends cublaslt,sm90"
  [B_two_peak]="--backends cublaslt,sm90"
  [C_sol_nopeak]="--no-peak --backends cublaslt,sm90,sol"
  [D_none_nopeak]="--no-peak --backends cublaslt,sm90,sm90:none"
  [E_four_nopeak]="--no-peak --backends cublaslt,sm90,sm90:none,sol"
  [F_four_peak]="--backends cublaslt,sm90,sm90:none,sol"
  [G_swapped_nopeak]="--no-peak --backends sm90,cublaslt"
  [H_lt_alone_nopeak]="--no-peak --backends cublaslt"
  [I_ours_after_sol]="--no-peak --backends cublaslt,sol,sm90"
  [J_bulk_nopeak]="--no-peak --backends cublaslt,sm90,sol=bulk"
  [K_lt_sol]="--no-peak --backends cublaslt,sol"
)
case ${CFGSET:-call3} in
  call3) keys="A_two_nopeak B_two_peak C_sol_nopeak D_none_nopeak E_four_nopeak F_four_peak G_swapped_nopeak H_lt_alone_nopeak" ;;
  call4) keys="A_two_nopeak C_sol_nopeak I_ours_after_sol J_bulk_nopeak K_lt_sol" ;;
  call5) keys="A_two_nopeak C_sol_nopeak E_four_nopeak F_four_peak" ;;
esac
for r in $(seq 1 $ROUNDS); do
  for c in $keys; do
    timeout 150 $X --suites splitk,llm --max-m 256 --dtypes bf16 ${all[$c]} --out $OUT/cfg/${c}_r$r > $OUT/cfg/${c}_r$r.log 2>&1
    echo "$c round $r rc=$?"
  done
done
(cd $OUT && tar czf cfg.tgz cfg && rm -rf cfg)
