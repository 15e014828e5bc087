#!/usr/bin/env bash
# Session 53, call 1: stream-K with the owners' heads at one k (StreamKPartition, this session)
# on the 128x256 tile in 2x1 clusters, beside the same tile unsplit, automatic and cuBLASLt in one
# run (turns), two rounds with the order reversed (session 51's 16 rows); then per-CTA traces of
# session 52's partition (s52trace) and this one (s53a) at 4096^3, 6144^3 and 8192^3, alternating.
set -u
B=${B:-build-probe/s53a}
O=${O:-build-probe/s52trace}
tools/unpack_prebuilt.sh $B
tools/unpack_prebuilt.sh $O
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s53
K2=sm90=sm90_bf16_bf16_128x256x64_s4_c2x1_bk
S=$D/shapes.json
for s in 4096 6144 8192; do
  for round in 1 2; do
    SM90_TRACE_CTAS=1 timeout 40 $O/sm90_trace $s $s $s 128x256c2x1 streamk 132 > $OUT/old_sk${s}_$round.txt 2>&1; echo "old sk $s rc=$?"
    SM90_TRACE_CTAS=1 timeout 40 $B/sm90_trace $s $s $s 128x256c2x1 streamk 132 > $OUT/new_sk${s}_$round.txt 2>&1; echo "new sk $s rc=$?"
  done
  SM90_TRACE_CTAS=1 timeout 40 $B/sm90_trace $s $s $s 128x256c2x1 none 1 > $OUT/new_none$s.txt 2>&1; echo "new none $s rc=$?"
done
timeout 200 $B/bench/graphgemm_bench --shapes $S --suites sq,llm4k,llm8k --dtypes bf16 --no-peak \
  --backends "cublaslt,sm90,$K2:none,$K2:streamk" --out $OUT/r1 > $OUT/r1.log 2>&1; echo "r1 rc=$?"
timeout 200 $B/bench/graphgemm_bench --shapes $S --suites sq,llm4k,llm8k --dtypes bf16 --no-peak \
  --backends "$K2:streamk,$K2:none,sm90,cublaslt" --out $OUT/r2 > $OUT/r2.log 2>&1; echo "r2 rc=$?"
python3 $D/ctas.py $OUT/*_sk*_*.txt $OUT/new_none*.txt
for r in r1 r2; do python3 bench/results/h100/experiments_s52/table.py $OUT/$r/gemm_bf16.json; done
