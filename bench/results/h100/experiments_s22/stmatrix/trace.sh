#!/usr/bin/env bash
# Session 22: the epilogue staged with stmatrix (one warp instruction per two column steps of a
# warp's 16 rows, its lane address computed once per block) against st.shared.b32 per column pair
# (each address recomputed per chunk). sm90_trace builds, alternating, two rounds: old = the
# st.shared build (this session's first trace binary), new = stmatrix. Per-launch median of a CUDA
# graph of back-to-back launches, and the last tile's epilogue (main loop done -> stored, median CTA).
B=build-probe/s22
for v in old new; do [ -f $B/sm90_trace_$v.gz ] && gunzip -f $B/sm90_trace_$v.gz; chmod +x $B/sm90_trace_$v; done
row() {  # row LABEL ARGS...
  for v in old new; do
    $B/sm90_trace_$v "${@:2}" >/tmp/t.txt 2>&1 || { echo "$1 $v FAILED"; cat /tmp/t.txt; continue; }
    local us=$(grep -o 'median [0-9.]* us' /tmp/t.txt | head -1 | awk '{print $2}')
    local e4=$(awk '/last main loop done/{print $(NF-2)}' /tmp/t.txt) e5=$(awk '/last unit stored/{print $(NF-2)}' /tmp/t.txt)
    printf '%-30s %-4s %9s us  epilogue %s us\n' "$1" $v "$us" "$(awk -v a=$e4 -v b=$e5 'BEGIN{printf "%.2f", b-a}')"
  done
}
for round in 1 2; do
  echo "== round $round"
  row "64x128 1024^3" 1024 1024 1024 64
  row "64x128 128x4096x4096" 128 4096 4096 64
  row "64x128 256x4096x4096" 256 4096 4096 64
  row "64x128 1024^3 bias+scale" 1024 1024 1024 64 none 1 - 1 - mlp
  row "128x128 2048^3" 2048 2048 2048 128
  row "128x128 256x6144x4096" 256 6144 4096 128
  row "128x256 2048^3" 2048 2048 2048 128x256
  row "128x256 4096^3" 4096 4096 4096 128x256
  row "128x256 1024x4096x14336" 1024 4096 14336 128x256
  row "128x256 4096^3 bias+scale" 4096 4096 4096 128x256 none 1 - 1 - mlp
done
