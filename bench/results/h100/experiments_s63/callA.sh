#!/usr/bin/env bash
# Session 63, call A, on s63a (= s62c's library, bcdf6a9; the bench with sol=math):
# 1. Session 62's call E: sm90_gemm_check --quick on every cluster kernel (their stream-K cases,
#    checked numerically since 1e38e20), and the default suites (bf16, B N x K then B K x N,
#    cuBLASLt beside automatic): the figures to commit.
# 2. The tensor cores' speed of light (sol=math) beside cuBLASLt and automatic on the compute-bound
#    suites: square and llm M >= 1024, in turns (two rounds, backends in opposite orders) and
#    sustained (square, 400 ms turns): cuBLASLt / sol=math bounds the speedup any wgmma kernel could
#    have over cuBLASLt on each shape.
set -u
B=${B:-build-probe/s63a}
source tools/device_call_env.sh
for f in _c2x1_ _c1x2_; do
  timeout 150 $B/tools/sm90_gemm_check --quick --filter=$f > $OUT/check$f.log 2>&1; echo "check $f rc=$? $(tail -n 1 $OUT/check$f.log)"
done
timeout 150 $X --dtypes bf16 --backends cublaslt,sm90 --out $OUT/suites > $OUT/suites.log 2>&1; echo "suites rc=$?"
timeout 150 $X --dtypes bf16 --b-layout kn --backends cublaslt,sm90 --out $OUT/suites > $OUT/suites_kn.log 2>&1; echo "suites kn rc=$?"
python3 tools/diag/suite_summary.py $OUT/suites/gemm_bf16.json $OUT/suites/gemm_bf16_bkn.json
BK=cublaslt,sm90,sol=math
for r in 1 2; do
  timeout 120 $X --dtypes bf16 --suites square,llm --min-m 1024 --backends $BK --out $OUT/sol_t$r > $OUT/sol_t$r.log 2>&1
  echo "sol turns round $r rc=$?"; python3 tools/diag/sol_table.py $OUT/sol_t$r/gemm_bf16.json | tail -n 3
  BK=$(reverse $BK)
done
timeout 150 $X --dtypes bf16 --suites square --sustain-ms 400 --backends cublaslt,sm90,sol=math --out $OUT/sol_sus > $OUT/sol_sus.log 2>&1
echo "sol sustained rc=$?"; python3 tools/diag/sol_table.py $OUT/sol_sus/gemm_bf16.json
python3 tools/diag/sol_table.py $OUT/sol_t1/gemm_bf16.json
(cd $OUT && tar czf suites.tgz suites suites.log suites_kn.log sol_t1 sol_t2 sol_sus sol_t1.log sol_t2.log sol_sus.log && rm -rf suites suites.log suites_kn.log sol_t1 sol_t2 sol_sus sol_t1.log sol_t2.log sol_sus.log)
