#!/usr/bin/env bash
# Session 42, call 7: the SMs' intake of L2-resident operand bytes (tools/diag/l2_intake_probe.cu)
# at the kernels' stage shapes (64 columns x 64 / 128 rows, 1 or 2 boxes a stage), 132 down to 16
# CTAs; beside it the DRAM stream of the same CTAs (tma_stream_probe, 132 CTAs x 64 rows x K 16384).
set -u
P=${P:-build-probe/s42p}
tools/unpack_prebuilt.sh $P
nvidia-smi --query-gpu=name,clocks.sm --format=csv,noheader
timeout 120 $P/tools/l2_intake_probe 16384 64 8 > $OUT/l2_r64.txt 2>&1; echo "r64 rc=$?"; cat $OUT/l2_r64.txt
timeout 120 $P/tools/l2_intake_probe 8192 128 8 > $OUT/l2_r128.txt 2>&1; echo "r128 rc=$?"; cat $OUT/l2_r128.txt
timeout 120 $P/tools/tma_stream_probe 8448 16384 64 > $OUT/dram_r64.txt 2>&1; echo "dram rc=$?"; cat $OUT/dram_r64.txt
