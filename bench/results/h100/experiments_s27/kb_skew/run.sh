#!/usr/bin/env bash
# Session 27, call 1: how far apart in time do the CTAs that read the same A tile issue its loads?
# (session 26: with cuBLASLt's own M = 256 configuration our kernel reads 34% more L2 sectors than
# cuBLASLt's; its A requests merge ~1.2x in the L2 request coalescer against ~1.9x.) sm90_trace
# built with the k-block trace (GRAPHGEMM_SM90_TRACE: the producer records %globaltimer at every
# 8th k-block of its first unit; SM90_TRACE_KB=FILE writes them and prints the spread per M tile).
#   nvcc -std=c++20 -arch=sm_90a -O3 -Iinclude -o build-probe/s27t/sm90_trace tools/diag/sm90_trace.cu
# Operands streamed from DRAM (default operand sets) and L2-resident (SM90_TRACE_SETS=1).
T=${TRACE:-build-probe/s27t/sm90_trace}
mkdir -p $OUT/k
run() {  # name, env..., args
  local name=$1; shift
  env SM90_TRACE_KB=$OUT/k/$name.csv "$@" > $OUT/k/$name.txt 2>&1; echo "$name rc=$?"
}
for c in 128 128c2x1 128x112c2x1; do
  run dram_256x7168x16384_$c $T 256 7168 16384 $c
  run l2_256x7168x16384_$c SM90_TRACE_SETS=1 $T 256 7168 16384 $c
  run dram_256x6144x4096_$c $T 256 6144 4096 $c
done
run dram_4096x4096x4096_128x256 $T 4096 4096 4096 128x256
run dram_4096x4096x4096_128 $T 4096 4096 4096 128
for f in $OUT/k/*.txt; do echo "== $(basename $f)"; grep -A12 "k-block issue" $f | head -12; grep "per launch" $f | sed 's/.*median/median/'; done
cd $OUT && tar czf k.tgz k && rm -rf k
