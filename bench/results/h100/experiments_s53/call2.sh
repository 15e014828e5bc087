#!/usr/bin/env bash
# Session 53, call 2: where stream-K's shared part goes, per CTA: sm90_trace with the stream-K
# events (13: first shared unit begins, 14: its main loop done) for session 52's partition (old:
# HEAD 5debc2d's kernel + the trace events) and this session's (new), 128x256 c2x1, two rounds
# alternating, beside the unsplit launch; summaries by tail.py, every trace in traces.tgz.
set -u
B=${B:-build-probe/s53t}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s53
W=$(mktemp -d)
for s in 8192 4096 6144; do
  SM90_TRACE_CTAS=1 timeout 40 $B/sm90_trace_new $s $s $s 128x256c2x1 none 1 > $W/none$s.txt 2>&1
  for round in 1 2; do
    for v in old new; do
      SM90_TRACE_CTAS=1 timeout 40 $B/sm90_trace_$v $s $s $s 128x256c2x1 streamk 132 > $W/${v}_sk${s}_$round.txt 2>&1
      echo "$v $s r$round rc=$? $(head -1 $W/${v}_sk${s}_$round.txt | grep -o 'median [0-9.]* us')"
    done
  done
  echo "unsplit $s $(head -1 $W/none$s.txt | grep -o 'median [0-9.]* us')"
  for round in 1 2; do for v in old new; do
    echo "== $v $s round $round"; python3 $D/tail.py $v $s $s $s $W/${v}_sk${s}_$round.txt $W/none$s.txt
  done; done
done
tar czf $OUT/traces.tgz -C $W .
