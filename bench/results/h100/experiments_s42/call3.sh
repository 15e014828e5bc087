#!/usr/bin/env bash
# Session 42, call 3: chain_trace of three builds, interleaved per case (old a d d a old, two
# rounds): old = HEAD 386d23a (per-M-block counter), a = the per-tile hand-over spinning on
# 16-byte acquire loads (call 2's relaxed spin removed), d = a's flags but every wait for the
# whole M block (the old semantics on the new flags).
set -u
C=${C:-build-probe/s42ct3}
tools/unpack_prebuilt.sh $C
nvidia-smi --query-gpu=name --format=csv,noheader
cases=("4096 1 pair" "4096 64 pair" "4096 128 pair" "4096 256 pair" "1024 64 64x64" "512 64 64x64" "512 256 64x64")
for r in 1 2; do
  for c in "${cases[@]}"; do
    for v in old a d d a old; do
      echo "== $v round $r: $c" >> $OUT/trace_$v.txt
      timeout 30 $C/tools/chain_trace_$v $c >> $OUT/trace_$v.txt 2>&1 || echo "rc=$? $v $c"
    done
  done
done
echo "a vs old"; python3 bench/results/h100/experiments_s42/trace_table.py $OUT/trace_old.txt $OUT/trace_a.txt
echo "d vs old"; python3 bench/results/h100/experiments_s42/trace_table.py $OUT/trace_old.txt $OUT/trace_d.txt
