#!/bin/bash
# Session 49, call 4: is a hidden-512 chain layer's main loop (~1.4 µs for 8 k-blocks after the
# hand-over) the consumer's wgmma or the rows' intake? chain_trace (HEAD's kernels) against
# chain_trace_nowgmma (diag_no_wgmma.patch: the consumers wait for each stage and release it but
# issue no wgmma; wrong results, timing only), 64x64 and 64x128 tiles, in turn, twice.
B=${B:-build-probe/s49c}
for h in 512 1024; do
  for m in 64 256; do
    for t in 64x64 64x128; do
      for r in 1 2; do
        for v in chain_trace chain_trace_nowgmma; do
          echo "=== $v hidden $h M $m $t"
          timeout 60 $B/tools/$v $h $m $t 256 - 2>&1
        done
      done
    done
  done
done > $OUT/call4.txt 2>&1
awk '/^===/{v=$2; h=$4; m=$6; t=$7} /per chain in a graph/{match($0,/median [0-9.]+/); med=substr($0,RSTART+7,RLENGTH-7)} /^  [0-3]  +[0-9.]+ \/ /{e[$1]=$5; ml[$1]=$2} /^  3  +[0-9.]+ \/ /{printf "%-20s h%-5s M%-4s %-7s graph20 %6s loop %s %s %s %s epi %s %s %s %s\n", v, h, m, t, med, ml[0], ml[1], ml[2], ml[3], e[0], e[1], e[2], e[3]}' $OUT/call4.txt
