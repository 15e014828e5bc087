#!/usr/bin/env bash
# Session 42, call 11: l2_intake_probe with and without the tensor map prefetched by the producer
# (the GEMM kernels prefetch theirs; the probes of sessions 18 and 42 did not).
set -u
P=${P:-build-probe/s42p}
tools/unpack_prebuilt.sh $P
run() { echo "== $*"; timeout 90 $P/tools/l2_intake_probe "$@" | grep -v "^  thread" | sed -n '1,12p'; }
{
  run 16384 64 8 200 0 0
  run 16384 64 8 200 0 1
  run 8192 128 8 200 0 1
} > $OUT/l2_prefetch.txt 2>&1
cat $OUT/l2_prefetch.txt
