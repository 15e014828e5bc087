#!/bin/bash
# Session 49, call 2: which part of a hand-over's release costs. chain_trace (HEAD: wait for the
# tile's TMA stores, fence.proxy.async, named barrier, red.release.gpu = MEMBAR.ALL.GPU + RED),
# chain_trace_relaxed (the same with red.relaxed.gpu: no MEMBAR) and chain_trace_relaxed_nowait
# (neither the store wait nor the MEMBAR: a diagnostic, its hand-overs race), in turn.
B=${B:-build-probe/s49a}
for h in 512 4096; do
  for m in 64 256; do
    for v in chain_trace chain_trace_relaxed chain_trace_relaxed_nowait chain_trace chain_trace_relaxed chain_trace_relaxed_nowait; do
      echo "=== $v hidden $h M $m -"
      timeout 60 $B/tools/$v $h $m pair 256 - 2>&1
    done
  done
done > $OUT/call2.txt 2>&1
awk '/^===/{v=$2; h=$4; m=$6} /per chain in a graph/{match($0,/median [0-9.]+/); med=substr($0,RSTART+7,RLENGTH-7)} /one chain a graph launch/{st=$13} /^  [0-3]  +[0-9.]+ \/ /{e[$1]=$5} /^  3  +[0-9.]+ \/ /{printf "%-28s h%-5s M%-4s graph20 %6s alone %6s  epilogue l0-3 %s %s %s %s\n", v, h, m, med, st, e[0], e[1], e[2], e[3]}' $OUT/call2.txt
