# Session 20, call 12: the cooperative kernel's second consumer warpgroup starting its first unit
# S k-blocks after the first (-DGRAPHGEMM_SM90_STAGGER=S, trace builds s1 / s2), so that the two
# warpgroups' epilogues do not coincide, against the current kernel (before). Alternating, two rounds.
B=build-probe/s20s
run() {  # label, args
  for v in before s1 s2; do
    echo "== $1 $v"
    $B/sm90_trace_$v "${@:2}" | grep -E "per launch|first stage|last main loop|last unit"
  done
}
for round in 1 2; do
  echo "#### round $round"
  run "128x256 2048^3" 2048 2048 2048 128x256
  run "128x256 4096^3" 4096 4096 4096 128x256
  run "128x256 6144^3" 6144 6144 6144 128x256
  run "128x256 8192x8192x4096" 8192 8192 4096 128x256
  run "128x128 2048^3" 2048 2048 2048 128
  run "128x128 4096^3" 4096 4096 4096 128
  run "128x128 256x6144x4096" 256 6144 4096 128
  run "128x128 1024x8192x8192" 1024 8192 8192 128
done
