#!/usr/bin/env bash
# Session 42, call 9: l2_intake_probe with the ring's warpgroup consumer (wg: a wait, a shared load,
# a named barrier, an arrive a stage) and a one-thread consumer (a wait and an arrive a stage), CTA
# 0's SM clock beside each; rings of 200 and 24 KB.
set -u
P=${P:-build-probe/s42p}
tools/unpack_prebuilt.sh $P
for kb in 200 24; do
  echo "== R 64, ring $kb KB"; timeout 90 $P/tools/l2_intake_probe 16384 64 8 $kb | sed -n '2,30p'
done > $OUT/l2_consumer.txt 2>&1
echo "== R 128, ring 200 KB" >> $OUT/l2_consumer.txt; timeout 90 $P/tools/l2_intake_probe 8192 128 8 200 | sed -n '2,30p' >> $OUT/l2_consumer.txt 2>&1
cat $OUT/l2_consumer.txt
