#!/usr/bin/env bash
# Session 42, call 10: l2_intake_probe with the rows padded (whether rows 32 KB apart alias in L2)
# and with K = 4096 (rows 8 KB apart, as llama3_8b's weights).
set -u
P=${P:-build-probe/s42p}
tools/unpack_prebuilt.sh $P
run() { echo "== $*"; timeout 90 $P/tools/l2_intake_probe "$@" | grep -v "^  thread" | sed -n '1,12p'; }
{
  run 16384 64 8 200 0
  run 16384 64 8 200 128
  run 16384 64 8 200 1024
  run 4096 64 32 200 0
  run 4096 64 32 200 128
} > $OUT/l2_pad.txt 2>&1
cat $OUT/l2_pad.txt
