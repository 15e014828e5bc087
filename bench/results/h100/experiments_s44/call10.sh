#!/usr/bin/env bash
# Session 44, call 10 (final build's bench, s44e: the wide tile and the 32x128 swap-AB rule): the
# suites (llm, square, splitk) with B stored N x K and K x N beside cuBLASLt, one round each.
set -u
B=${B:-build-probe/s44e}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
timeout 130 $B/bench/graphgemm_bench --suites llm,square,splitk --dtypes bf16 --b-layout kn --no-peak --backends cublaslt,sm90 --out $OUT/kn > $OUT/kn.log 2>&1; echo "kn rc=$?"
timeout 130 $B/bench/graphgemm_bench --suites llm,square,splitk --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/nk > $OUT/nk.log 2>&1; echo "nk rc=$?"
python3 tools/diag/suite_summary.py $OUT/kn/gemm_bf16_bkn.json 2>&1 | tail -8
python3 tools/diag/suite_summary.py $OUT/nk/gemm_bf16.json 2>&1 | tail -8
for L in kn nk; do f=$(ls $OUT/$L/*.json); python3 -c "
import json,sys
for r in json.load(open('$f'))['rows']:
    if (r['M'],r['N'],r['K']) in [(16,7168,16384),(32,7168,16384)]: print('$L', r['M'],r['N'],r['K'], 'cuBLASLt/ours %.3f'%(r['us']['cublaslt']/r['us']['sm90']), 'ours/floor %.3f'%(r['us']['sm90']/r['floor_us']))
"; done
