#!/usr/bin/env bash
# Session 54, call 1: stream-K's charge for a tile boundary (StreamKPartition, GemmParams::
# stream_k_boundary) swept with sm90_trace on the 128x256 tile in 2x1 clusters (the automatic
# stream-K tile), the charges taking turns in three rounds, beside the unsplit launch; per-CTA
# traces kept; then every GPU test of the new build.
set -u
B=${B:-build-probe/s54g}
T=${T:-build-probe/s54t}
tools/unpack_prebuilt.sh $B
tools/unpack_prebuilt.sh $T
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s54
mkdir -p $OUT/sweep
SHAPES="8192,8192,8192 6144,6144,6144 8192,8192,28672 4096,8192,28672 8192,10240,8192 4096,4096,4096"
for round in 1 2 3; do
  for s in $SHAPES; do
    IFS=, read m n k <<< "$s"
    timeout 30 $T/sm90_trace $m $n $k 128x256c2x1 none 1 > $OUT/sweep/none_${m}x${n}x${k}_r$round.txt 2>&1
    gs="0 3 6 9 12"; [ $round = 2 ] && gs="12 9 6 3 0"
    for g in $gs; do
      SM90_TRACE_SK_BOUNDARY=$g SM90_TRACE_CTAS=1 timeout 30 $T/sm90_trace $m $n $k 128x256c2x1 streamk 132 \
        > $OUT/sweep/g${g}_${m}x${n}x${k}_r$round.txt 2>&1
    done
  done
done
python3 $D/sweep_table.py $OUT/sweep
tar czf $OUT/sweep.tgz -C $OUT sweep && rm -rf $OUT/sweep
timeout 300 $B/tests/graphgemm_gpu_tests > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|tests ran" $OUT/gtest.log | tail -12
