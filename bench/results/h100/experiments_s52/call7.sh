#!/usr/bin/env bash
# Session 52, call 7: call 6 again, twice (the suites' run-to-run spread: 2048^3 and 16384^3 moved
# 2-3% against cuBLASLt from session 46's run, one of them a row the rule does not touch).
set -u
B=${B:-build-probe/s52c}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
for r in 2 3; do
  timeout 280 $B/bench/graphgemm_bench --dtypes bf16 --backends cublaslt,sm90 --out $OUT/suites$r > $OUT/suites$r.log 2>&1; echo "suites $r rc=$?"
  python3 tools/diag/suite_summary.py $OUT/suites$r/gemm_bf16.json
done
