#!/bin/bash
# Session 49, call 1: what the setup kernel and the store-completion wait before each hand-over
# cost the chain. chain_trace (HEAD + the setup-cost timing: one chain a graph launch with and
# without the setup kernel) and chain_trace_nowait (the same with the wait for the tile's TMA
# stores before the counter release removed: a diagnostic, its hand-overs race), in turn.
B=${B:-build-probe/s49a}
for pdl in - pdl; do
  for h in 512 1024 4096; do
    for m in 1 64 256; do
      for v in chain_trace chain_trace_nowait chain_trace chain_trace_nowait; do
        echo "=== $v hidden $h M $m $pdl"
        timeout 60 $B/tools/$v $h $m pair 256 $pdl 2>&1
      done
    done
  done
done > $OUT/call1.txt 2>&1
awk '/^===/{v=$2; h=$4; m=$6; p=$7} /per chain in a graph/{match($0,/median [0-9.]+/); med=substr($0,RSTART+7,RLENGTH-7)} /one chain a graph launch/{printf "%-20s h%-5s M%-4s %-4s graph20 %6s  step setup+chain %s alone %s setup %s\n", v, h, m, p, med, $9, $13, $18}' $OUT/call1.txt
