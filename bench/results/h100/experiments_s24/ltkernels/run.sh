#!/usr/bin/env bash
# Session 24, call 7: what cuBLASLt runs (kernel names, grids, time, DRAM read; ncu, eager launches)
# on the shapes where it leads ours once measured without `sol` (splitk 128x256x32768, 256x256x16384,
# 128x1536x7168; llm M = 256 deepseek_v3.c / .d, llama3_8b.qkv), beside ours; 128x128x16384 too.
B=${BUILD:-build-probe/s24b}
[ -f $B/bench/graphgemm_bench.gz ] && gunzip -f $B/bench/graphgemm_bench.gz; chmod +x $B/bench/graphgemm_bench
pairs=()
for s in 128x256x32768 256x256x16384 128x1536x7168 128x128x16384 256x7168x16384 256x7168x2048 256x6144x4096; do
  pairs+=("$s cublaslt" "$s sm90")
done
BENCH=$B/bench/graphgemm_bench NAME_WIDTH=110 tools/diag/ncu_shapes.sh $OUT/ncu "${pairs[@]}" | tee $OUT/ncu_table.txt
(cd $OUT && tar czf ncu.tgz ncu && rm -rf ncu)
