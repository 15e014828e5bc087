#!/usr/bin/env bash
# Session 22, call 1: the cooperative 128x256 tile with a ring of 3 stages and one staging buffer
# per epilogue chunk (4 a warpgroup: no chunk waits for a store of its own tile) against the
# library's 4 stages and 2 buffers, in one trace binary, alternating, two rounds. Per-launch median
# (a CUDA graph of back-to-back launches over operand sets larger than L2) and the last tile's
# main-loop-done -> stored epilogue time.
B=${B:-build-probe/s22/sm90_trace_old}
[ -f $B.gz ] && gunzip -f $B.gz && chmod +x $B
row() {  # row SHAPE TILE: "tile shape per-launch-median epilogue(us, median CTA)"
  $B $1 $2 $3 $4 none 1 - 1 - - >/tmp/t.txt 2>&1 || { echo "$4 $1x$2x$3 FAILED"; cat /tmp/t.txt; return; }
  local us=$(grep -o 'median [0-9.]* us' /tmp/t.txt | head -1 | awk '{print $2}')
  local e4=$(awk '/last main loop done/{print $(NF-2)}' /tmp/t.txt) e5=$(awk '/last unit stored/{print $(NF-2)}' /tmp/t.txt)
  printf '%-14s %-16s %9s us  epilogue %s us\n' "$4" "$1x$2x$3" "$us" "$(awk -v a=$e4 -v b=$e5 'BEGIN{printf "%.2f", b-a}')"
}
for round in 1 2; do
  echo "== round $round"
  for shape in "2048 2048 2048" "4096 4096 4096" "6144 6144 6144" "8192 8192 4096" "1024 4096 14336" "1024 8192 8192" "1024 7168 16384"; do
    for tile in 128x256 128x256s3; do row $shape $tile; done
  done
  for shape in "4096 4096 14336" "4096 7168 16384" "8192 8192 8192"; do
    for tile in 128x256c2x1 128x256s3c2x1; do row $shape $tile; done
  done
done
