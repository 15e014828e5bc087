#!/usr/bin/env bash
# Session 42, call 8: l2_intake_probe with rings of 25 / 12 / 6 / 3 stages (200 / 96 / 48 / 24 KB at
# 8 KB stages): whether the ~0.3 us a stage of call 7 is a latency the ring's depth hides.
set -u
P=${P:-build-probe/s42p}
tools/unpack_prebuilt.sh $P
for kb in 200 96 48 24; do
  echo "== ring $kb KB"; timeout 60 $P/tools/l2_intake_probe 16384 64 8 $kb | sed -n '2,8p'
done > $OUT/l2_depth.txt 2>&1
cat $OUT/l2_depth.txt
