#!/bin/bash
# Session 49, call 3: the weights after the release. chain_trace of the working tree with
# CHAIN_WEIGHTS_AFTER_RELEASE=0 (as HEAD: the weights' thread fills the ring with the next layer's
# weights as soon as stages free) and =1 (it prefetches the next layer's first kStages k-blocks of
# weights into L2 and loads them into shared memory only after the CTA's consumers have released
# their last tile of the layer before, so that the release's MEMBAR.GPU does not wait behind
# them), and chain_trace_relaxed (diag_relaxed.patch: no MEMBAR at all, not a release; the
# reference for what the MEMBAR costs), in turn, twice.
B=${B:-build-probe/s49b}
for pdl in - pdl; do
  for h in 512 1024 4096; do
    for m in 1 64 129 256; do
      for r in 1 2; do
        for v in base war relaxed; do
          bin=chain_trace; war=0
          [ $v = war ] && war=1
          [ $v = relaxed ] && bin=chain_trace_relaxed
          echo "=== $v hidden $h M $m $pdl"
          CHAIN_WEIGHTS_AFTER_RELEASE=$war timeout 60 $B/tools/$bin $h $m pair 256 $pdl 2>&1
        done
      done
    done
  done
done > $OUT/call3.txt 2>&1
awk '/^===/{v=$2; h=$4; m=$6; p=$7} /bit for bit/{bb=$0 ~ /: yes/ ? "ok" : "DIFF"} /per chain in a graph/{match($0,/median [0-9.]+/); med=substr($0,RSTART+7,RLENGTH-7)} /one chain a graph launch/{st=$9} /^  [0-3]  +[0-9.]+ \/ /{e[$1]=$5; ml[$1]=$2} /^  3  +[0-9.]+ \/ /{printf "%-8s h%-5s M%-4s %-3s graph20 %6s step %6s epi %s %s %s %s loop %s %s %s %s %s\n", v, h, m, p, med, st, e[0], e[1], e[2], e[3], ml[0], ml[1], ml[2], ml[3], bb}' $OUT/call3.txt
