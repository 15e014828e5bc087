#!/usr/bin/env bash
# Session 43, call 7: call 6's two rounds of the B K x N suites again (a device call returns at most
# 8 files and call 6 wrote 12: its suite JSONs did not come back); round 1 is the committed
# bench/results/h100/gemm_bf16_bkn.*.
set -u
B=${B:-build-probe/s43d}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
f=$B/bench/graphgemm_bench
for r in 1 2; do
  timeout 120 $f --suites llm,square,splitk --dtypes bf16 --b-layout kn --backends cublaslt,sm90 --out $OUT/kn_r$r > $OUT/kn_r$r.log 2>&1; echo "kn r$r rc=$?"
done
