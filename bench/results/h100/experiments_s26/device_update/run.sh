#!/usr/bin/env bash
# Session 26: tools/diag/device_update_probe (issue 4): one argument kernel at the head of the graph
# applying a step's parameters to the 4 layer nodes on the device (device-updatable kernel nodes,
# cudaGraphKernelNodeUpdatesApply), against 4 host node updates and the static floor. Runs: the
# whole 520-byte parameter blocks (results checked every step), spin 4000 and 0 cycles; then timing
# only, 8 and 136 bytes updated per node (the layers then see stale maps: "STALE" is expected).
# Build: nvcc -std=c++20 -gencode arch=compute_90a,code=sm_90a -O3 -Iinclude \
#          -o build-probe/s26/device_update_probe tools/diag/device_update_probe.cu
P=${PROBE:-build-probe/s26/device_update_probe}
mkdir -p $OUT/device_update
{
  $P 4000 2000 5 16
  $P 0 2000 5 16
  $P 4000 1000 3 16 -1 8
  $P 4000 1000 3 16 -1 136
} > $OUT/device_update/probe.txt 2>&1
echo "probe rc=$?"; grep -c "^| " $OUT/device_update/probe.txt
