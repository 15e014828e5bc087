#!/usr/bin/env bash
# Session 52, call 1: stream-K with the owner's fix-up through shared memory (partials in fragment
# order, one bulk copy a warpgroup into the idle ring) over the last partial wave (the library's
# new StreamKPartition), on the 128x256 c1x1 tile beside the same tile unsplit, automatic and
# cuBLASLt, two rounds with the order reversed; the stream-K GPU tests (and racecheck on them);
# the fix-up traced per CTA at 4096^3.
set -u
B=${B:-build-probe/s52a}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s52
if [ -x $B/tests/graphgemm_gpu_tests ]; then  # (in a separate call when the binaries do not fit)
  timeout 120 $B/tests/graphgemm_gpu_tests --gtest_filter='Sm90SplitK.*' > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
  tail -3 $OUT/gtest.log
fi
T=$B/sm90_trace
SM90_TRACE_CTAS=1 timeout 60 $T 4096 4096 4096 128x256 streamk 132 > $OUT/ctas_sk4096.txt 2>&1; echo "trace sk rc=$?"
SM90_TRACE_CTAS=1 timeout 60 $T 4096 4096 4096 128x256 none 1 > $OUT/ctas_none4096.txt 2>&1; echo "trace none rc=$?"
grep -E "per launch|last main|stored|hand" $OUT/ctas_sk4096.txt $OUT/ctas_none4096.txt | grep -v " cta " | head -20
K=sm90=sm90_bf16_bf16_128x256x64_s4_c1x1_bk
S=$D/shapes.json
timeout 200 $B/bench/graphgemm_bench --shapes $S --suites sq,llm4k,llm8k --dtypes bf16 --no-peak \
  --backends "cublaslt,sm90,$K:none,$K:streamk" --out $OUT/r1 > $OUT/r1.log 2>&1; echo "r1 rc=$?"
timeout 200 $B/bench/graphgemm_bench --shapes $S --suites sq,llm4k,llm8k --dtypes bf16 --no-peak \
  --backends "$K:streamk,$K:none,sm90,cublaslt" --out $OUT/r2 > $OUT/r2.log 2>&1; echo "r2 rc=$?"
for r in r1 r2; do python3 bench/results/h100/experiments_s51/table.py $OUT/$r/gemm_bf16.json; done
