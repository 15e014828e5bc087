#!/usr/bin/env bash
# Session 52, call 3: stream-K on the 128x256 tile in 2x1 clusters (B multicast, deferred
# epilogue: automatic's tile past two waves) and without, beside the c2x1 tile unsplit, automatic
# and cuBLASLt, in one run (turns), two rounds with the order reversed; then the fix-up per CTA at
# 4096^3 and 8192^3 in 2x1 clusters.
set -u
B=${B:-build-probe/s52b}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s52
K1=sm90=sm90_bf16_bf16_128x256x64_s4_c1x1_bk
K2=sm90=sm90_bf16_bf16_128x256x64_s4_c2x1_bk
S=$D/shapes.json
timeout 220 $B/bench/graphgemm_bench --shapes $S --suites sq,llm4k,llm8k --dtypes bf16 --no-peak \
  --backends "cublaslt,sm90,$K2:none,$K2:streamk,$K1:streamk" --out $OUT/r1 > $OUT/r1.log 2>&1; echo "r1 rc=$?"
timeout 220 $B/bench/graphgemm_bench --shapes $S --suites sq,llm4k,llm8k --dtypes bf16 --no-peak \
  --backends "$K1:streamk,$K2:streamk,$K2:none,sm90,cublaslt" --out $OUT/r2 > $OUT/r2.log 2>&1; echo "r2 rc=$?"
T=$B/sm90_trace
for s in 4096 8192; do
  SM90_TRACE_CTAS=1 timeout 40 $T $s $s $s 128x256c2x1 streamk 132 > $OUT/ctas_sk$s.txt 2>&1; echo "trace sk $s rc=$?"
  SM90_TRACE_CTAS=1 timeout 40 $T $s $s $s 128x256c2x1 none 1 > $OUT/ctas_none$s.txt 2>&1; echo "trace none $s rc=$?"
done
grep -E "per launch|last main|stored" $OUT/ctas_*.txt | grep -v " cta "
for r in r1 r2; do python3 $D/table.py $OUT/$r/gemm_bf16.json; done
