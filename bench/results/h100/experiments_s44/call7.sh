#!/usr/bin/env bash
# Session 44, call 7 (bench pack s44c: HEAD's heuristic and kernels; the later operand-offset
# refactor left every kernel's SASS unchanged): the B K x N suites again (round 2 of call 3's) and
# the B N x K suites, beside cuBLASLt.
set -u
B=${B:-build-probe/s44c}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
timeout 130 $B/bench/graphgemm_bench --suites llm,square,splitk --dtypes bf16 --b-layout kn --no-peak --backends cublaslt,sm90 --out $OUT/kn > $OUT/kn.log 2>&1; echo "kn rc=$?"
timeout 130 $B/bench/graphgemm_bench --suites llm,square,splitk --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/nk > $OUT/nk.log 2>&1; echo "nk rc=$?"
python3 tools/diag/suite_summary.py $OUT/kn/gemm_bf16_bkn.json 2>&1 | tail -9
python3 tools/diag/suite_summary.py $OUT/nk/gemm_bf16.json 2>&1 | tail -9
