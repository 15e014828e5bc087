#!/usr/bin/env bash
# Session 32, call 12: would a 64x112 tile (3 M tiles x 37 N tiles = 111 CTAs at N = 4096, against
# 96 with 64x128) close the gap at M in (128, 192]? sm90_trace (GemmConfig 64x112, 9 stages; trace
# builds: only for the tile-count effect), against 64x128 and 64x64 in the same build, twice each.
# The build (not kept): GemmConfig::kSplitCluster also required kBlockN % 64 == 0 (the cluster sums'
# whole-quads rule), and sm90_trace.cu dispatched "64x112" to GemmConfig<bf, bf, 64, 112, 9, 1, 1, true>.
set -u
t=/tmp/s32tr; mkdir -p $t; gunzip -c build-probe/sm90_trace112.gz > $t/tr; chmod +x $t/tr
o=${OUT:-/tmp/out}; mkdir -p $o
for s in "129 4096 4096" "160 4096 4096" "192 4096 4096" "129 2112 7168" "192 7168 2048" "256 4096 4096"; do
  for tile in 64 64x112 64x64; do
    for rep in 1 2; do
      echo "$s $tile: $($t/tr $s $tile none 1 - 2>&1 | head -1 | grep -oE 'grid [0-9]+ CTAs|median [0-9.]+ us' | paste -sd' ')"
    done
  done
done | tee $o/tile112.txt
