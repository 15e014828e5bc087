#!/usr/bin/env bash
# Session 52, call 6: the default suites (square, llm, splitk, ragged; bf16) on the final build,
# automatic beside cuBLASLt in one run (committed as ../gemm_bf16.*).
set -u
B=${B:-build-probe/s52c}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 400 $B/bench/graphgemm_bench --dtypes bf16 --backends cublaslt,sm90 --out $OUT/suites > $OUT/suites.log 2>&1; echo "suites rc=$?"
python3 tools/diag/suite_summary.py $OUT/suites/gemm_bf16.json
