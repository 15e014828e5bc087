#!/usr/bin/env bash
# Session 58, call C (s58a): where our kernel's instructions go against cuBLASLt's at 256 x 7168 x 2048
# (call B: the same tile / cluster / stages as cuBLASLt's nvjet 112x128 2x1, 2.5x its instructions,
# 21 µs against 16 cold under ncu, level back to back in the bench). ncu source pages (per SASS
# instruction: executed count, stall samples) of our pair tile, our automatic and cuBLASLt's kernel;
# SM clock and active cycles of each under ncu (is ours run at a lower clock there?).
set -u
B=${B:-build-probe/s58a}
tools/unpack_prebuilt.sh $B
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader
X=$B/bench/graphgemm_bench
P=sm90_bf16_bf16_
export BENCH=$X
S=256x7168x2048
timeout 150 tools/diag/ncu_source.sh $OUT/src $S "sm90=${P}128x112x64_s7_c2x1+pdl:none" 3; echo "src pair rc=$?"
KERNEL=nvjet timeout 150 tools/diag/ncu_source.sh $OUT/src $S cublaslt 3; echo "src cublaslt rc=$?"
timeout 150 tools/diag/ncu_source.sh $OUT/src $S sm90 3; echo "src auto rc=$?"
ls -la $OUT/src
export NAME_WIDTH=40 EXTRA_METRICS=sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg,smsp__inst_executed.sum,smsp__warps_launched.sum
timeout 120 tools/diag/ncu_shapes.sh $OUT/ncu "$S cublaslt" "$S sm90=${P}128x112x64_s7_c2x1+pdl:none" "1024x1024x1024 cublaslt" "1024x1024x1024 sm90" > $OUT/ncu.txt 2>&1; echo "ncu rc=$?"
cut -c1-16,24-60,100-500 $OUT/ncu.txt
(cd $OUT && tar czf src.tgz src ncu && rm -rf src ncu)
