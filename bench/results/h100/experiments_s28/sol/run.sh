#!/usr/bin/env bash
# Session 28 (no library change): issue 6's goals against the memory speed of light again, HEAD's
# bench (build-probe/s27b): the splitk suite with cuBLASLt, ours and every sol variant in one run,
# ROUNDS rounds; tools/diag/sol_table.py per round. (A run with sol in it slows cuBLASLt on these
# shapes by 4-6%, session 24: cuBLASLt / sol here is an upper bound of what a mover gains on it.)
B=${BUILD:-build-probe/s27b}/bench/graphgemm_bench
[ -f $B.gz ] && gunzip -f $B.gz; chmod +x $B
ROUNDS=${ROUNDS:-2}
mkdir -p $OUT/sol
SOLS=cublaslt,sm90,sol,sol+pdl,sol=loads/8,sol=bulk,sol+pdl+prefetch,sol=loads/8+pdl+prefetch,sol=bulk+pdl+prefetch
for r in $(seq 1 $ROUNDS); do
  timeout 200 $B --suites splitk --dtypes bf16 --no-peak --backends $SOLS --out $OUT/sol/r$r > $OUT/sol/r$r.log 2>&1
  echo "round $r rc=$?"
  python3 tools/diag/sol_table.py $OUT/sol/r$r/gemm_bf16.json
done
