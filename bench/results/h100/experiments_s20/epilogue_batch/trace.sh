# Session 20: the epilogue staged in groups of chunks (one wait for every buffer, one fence and two
# barriers per group) against one chunk at a time. sm90_trace builds, alternating, two rounds:
# before = HEAD (59ea4bf's kernels); batch = call 6 (trace_call6.txt): an experiment build
# (-DGRAPHGEMM_SM90_EPI_BATCH, every tile in groups of two chunks); call 7 (trace.txt): the kept
# code (cooperative tiles whose buffers hold the whole 64-row block, in one group).
B=build-probe/s20
run() {  # label, args
  for v in before batch; do
    echo "== $1 $v"
    $B/sm90_trace_$v "${@:2}" | grep -E "per launch|first stage|last main loop|last unit"
  done
}
for round in 1 2; do
  echo "#### round $round"
  run "128x256 2048^3" 2048 2048 2048 128x256
  run "128x256 4096^3" 4096 4096 4096 128x256
  run "128x256 6144^3" 6144 6144 6144 128x256
  run "128x128 2048^3" 2048 2048 2048 128
  run "128x128 4096^3" 4096 4096 4096 128
  run "128x128 256x6144x4096" 256 6144 4096 128
  run "64x128 1024^3" 1024 1024 1024 64
  run "64x128 128x4096x4096" 128 4096 4096 64
  run "64x128 1024^3 bias+scale" 1024 1024 1024 64 none 1 - 1 - mlp
  run "128x256 4096^3 bias+scale" 4096 4096 4096 128x256 none 1 - 1 - mlp
done
