#!/usr/bin/env bash
# Session 62, call E, on s62c (= s62b's library, a00eedf, with the check tool expecting stream-K to
# run on cluster kernels, as it has since session 52):
# 1. sm90_gemm_check --quick on every cluster kernel (c2x1 / c1x2): their stream-K cases checked.
# 2. The default suites (bf16; B N x K, then B K x N), cuBLASLt beside automatic: the figures to commit.
set -u
B=${B:-build-probe/s62c}
source tools/device_call_env.sh
for f in _c2x1_ _c1x2_; do
  timeout 150 $B/tools/sm90_gemm_check --quick --filter=$f > $OUT/check$f.log 2>&1; echo "check $f rc=$? $(tail -n 1 $OUT/check$f.log)"
done
timeout 150 $X --dtypes bf16 --backends cublaslt,sm90 --out $OUT/suites > $OUT/suites.log 2>&1; echo "suites rc=$?"
timeout 150 $X --dtypes bf16 --b-layout kn --backends cublaslt,sm90 --out $OUT/suites > $OUT/suites_kn.log 2>&1; echo "suites kn rc=$?"
python3 tools/diag/suite_summary.py $OUT/suites/gemm_bf16.json $OUT/suites/gemm_bf16_bkn.json
(cd $OUT && tar czf suites.tgz suites suites.log suites_kn.log && rm -rf suites suites.log suites_kn.log)
