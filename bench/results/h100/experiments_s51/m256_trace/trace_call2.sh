set -u
T=build-probe/s51/sm90_trace
for sets in 1 5; do
for cfg in "64 none 1" "128 serial 2" "64x64 none 1"; do
  set -- $cfg
  echo "=== sets $sets 256 4096 4096 $cfg pdl"
  SM90_TRACE_SETS=$sets timeout 60 $T 256 4096 4096 $1 $2 $3 pdl 2>&1 | grep -E "per launch|first stage|last main|exit"
done; done
for cfg in "64 none 1" "128 none 1" ; do
  set -- $cfg
  echo "=== 128 4096 4096 $cfg pdl"
  timeout 60 $T 128 4096 4096 $1 $2 $3 pdl 2>&1 | grep -E "per launch|first stage|last main|exit"
  SM90_TRACE_SETS=1 timeout 60 $T 128 4096 4096 $1 $2 $3 pdl 2>&1 | grep -E "per launch|first stage|last main|exit"
done
