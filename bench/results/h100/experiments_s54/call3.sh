#!/usr/bin/env bash
# Session 54, call 3 (and call 4 with B=build-probe/s52c, the library as committed, S=0): the pair
# tiles' rows (shapes.json: B N x K 'pair', B K x N 'pairkn'), automatic beside cuBLASLt, two rounds
# around the default suites (S=1: square, llm, splitk, ragged; bf16; committed as ../gemm_bf16.*).
set -u
B=${B:-build-probe/s54b}
S=${S:-1}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s54
X=$B/bench/graphgemm_bench
pairs() {
  timeout 60 $X --shapes $D/shapes.json --suites pair --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/pair_$1 > $OUT/pair_$1.log 2>&1; echo "pair $1 rc=$?"
  timeout 60 $X --shapes $D/shapes.json --suites pairkn --b-layout kn --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/pairkn_$1 > $OUT/pairkn_$1.log 2>&1; echo "pairkn $1 rc=$?"
}
pairs r1
if [ "$S" = 1 ]; then
  timeout 400 $X --dtypes bf16 --backends cublaslt,sm90 --out $OUT/suites > $OUT/suites.log 2>&1; echo "suites rc=$?"
fi
pairs r2
for r in r1 r2; do
  python3 bench/results/h100/experiments_s52/table.py $OUT/pair_$r/gemm_bf16.json
  python3 bench/results/h100/experiments_s52/table.py $OUT/pairkn_$r/gemm_bf16_bkn.json
done
[ "$S" = 1 ] && python3 tools/diag/suite_summary.py $OUT/suites/gemm_bf16.json
cd $OUT && tar czf runs.tgz pair_* pairkn_* $( [ "$S" = 1 ] && echo suites suites.log ) && rm -rf pair_r* pairkn_r*
