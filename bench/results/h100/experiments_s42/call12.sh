#!/usr/bin/env bash
# Session 42, call 12: l2_intake_probe with each k-block also loading an A box from a second tensor
# map (8 rows: the chain's x_0 at M = 1; 64 rows: a 64-row tile's A), as the GEMMs load a stage.
set -u
P=${P:-build-probe/s42p}
tools/unpack_prebuilt.sh $P
run() { echo "== $*"; timeout 90 $P/tools/l2_intake_probe "$@" | grep -v "^  thread" | sed -n '1,12p'; }
{
  run 16384 64 8 200 0 1 0
  run 16384 64 8 200 0 1 8
  run 16384 64 8 200 0 1 64
} > $OUT/l2_two_maps.txt 2>&1
cat $OUT/l2_two_maps.txt
