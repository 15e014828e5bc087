# Session 20, call 5: the cooperative kernel's epilogue stored straight from registers (bf16x2
# st.global per column pair, no staging buffer, no TMA store) against the staged TMA-store epilogue.
# sm90_trace builds (before: HEAD; direct: -DGRAPHGEMM_SM90_DIRECT_EPILOGUE), alternating, two rounds.
B=build-probe/s20
run() {  # label, args
  for v in before direct; do
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
