#!/usr/bin/env bash
# Session 54, call 7: the other committed suites on the final build (last run before session 52's
# pair-tile regression or earlier): B stored K x N, fp16, fp32 D, the bias epilogue; automatic beside
# cuBLASLt in one run each (committed as ../gemm_bf16_bkn.*, ../gemm_fp16.*, ../gemm_bf16_ofp32.*,
# ../gemm_bf16_bias.*).
set -u
B=${B:-build-probe/s54b}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
X=$B/bench/graphgemm_bench
timeout 120 $X --dtypes bf16 --b-layout kn --backends cublaslt,sm90 --out $OUT/s > $OUT/bkn.log 2>&1; echo "bkn rc=$?"
timeout 120 $X --dtypes fp16 --backends cublaslt,sm90 --out $OUT/s > $OUT/fp16.log 2>&1; echo "fp16 rc=$?"
timeout 120 $X --dtypes bf16 --out-dtype fp32 --backends cublaslt,sm90 --out $OUT/s > $OUT/ofp32.log 2>&1; echo "ofp32 rc=$?"
timeout 120 $X --dtypes bf16 --epilogue bias --backends cublaslt,sm90 --out $OUT/s > $OUT/bias.log 2>&1; echo "bias rc=$?"
for f in $OUT/s/*.json; do echo "== $(basename $f)"; python3 tools/diag/suite_summary.py $f; done
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
