# Session 20, call 3: the 64x128 unsplit twin with two consumer warpgroups splitting the columns
# (after) against one warpgroup owning all 128 columns (before); sm90_trace builds of each, run
# alternately, two rounds. Prints per-launch times and the event medians; SASS check of the twin.
B=build-probe/s20
F='_ZN9graphgemm7kernels4sm906detail16sm90_gemm_kernelINS1_13UnsplitConfigINS1_10GemmConfigI13__nv_bfloat16S6_Li64ELi128ELi8ELi1ELi1ELb1EEEEEEEv14CUtensorMap_stS9_S9_NS2_12KernelParamsE'
for v in before after; do
  echo "== SASS $v: HGMMA of the 64x128 unsplit twin"
  cuobjdump -sass -fun $F $B/sm90_trace_$v | grep -o "HGMMA\.[0-9A-Za-z.]*" | sort | uniq -c
done
for round in 1 2; do
  for shape in "1024 1024 1024" "64 4096 4096" "128 4096 4096" "64 6144 4096" "128 7168 2048" "256 4096 4096" "2048 2048 2048"; do
    for v in before after; do
      echo "== round $round $v $shape"
      $B/sm90_trace_$v $shape 64 none 1 - 1 - - | grep -E "per launch|first stage|last main loop|last unit|stores drained"
    done
  done
  for v in before after; do
    echo "== round $round $v 1024^3 mlp epilogue"
    $B/sm90_trace_$v 1024 1024 1024 64 none 1 - 1 - mlp | grep -E "per launch|last main loop|last unit"
    echo "== round $round $v 128x4096x4096 pdl"
    $B/sm90_trace_$v 128 4096 4096 64 none 1 pdl 1 - - | grep -E "per launch|last main loop|last unit"
  done
done
