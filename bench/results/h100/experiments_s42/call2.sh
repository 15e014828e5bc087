#!/usr/bin/env bash
# Session 42, call 2: the per-tile hand-over with a 16-byte acquire load per poll (no
# fence.acq_rel: call 1's MEMBAR.GPU per poll) against HEAD 386d23a (old), chain_trace, two rounds.
set -u
C=${C:-build-probe/s42ct2}
tools/unpack_prebuilt.sh $C
nvidia-smi --query-gpu=name --format=csv,noheader
cases=("4096 1 pair" "4096 64 pair" "4096 128 pair" "4096 256 pair" "1024 64 64x64" "512 64 64x64")
for r in 1 2; do
  for v in old new; do
    for c in "${cases[@]}"; do
      echo "== $v round $r: $c" >> $OUT/trace_$v.txt
      timeout 30 $C/tools/chain_trace_$v $c >> $OUT/trace_$v.txt 2>&1 || echo "rc=$? $v $c"
    done
  done
done
python3 bench/results/h100/experiments_s42/trace_table.py $OUT/trace_old.txt $OUT/trace_new.txt
