set -u
T=build-probe/s51/sm90_trace
nvidia-smi --query-gpu=name,clocks.sm --format=csv,noheader
for cfg in "64 none 1" "64x64 none 1" "128 none 1" "128 serial 2" "128 parallel 2" "128 serial 2 - cluster"; do
  set -- $cfg
  echo "=== 256 4096 4096 $cfg pdl"
  if [ "${4:-}" = "cluster" ]; then timeout 60 $T 256 4096 4096 128 parallel 2 pdl 2 2>&1 | tail -14
  else timeout 60 $T 256 4096 4096 $1 $2 $3 pdl 2>&1 | tail -14; fi
done
echo "=== per CTA, 128 serial 2"
SM90_TRACE_CTAS=1 timeout 60 $T 256 4096 4096 128 serial 2 pdl > $OUT/ctas_serial.txt 2>&1; tail -3 $OUT/ctas_serial.txt
SM90_TRACE_CTAS=1 timeout 60 $T 256 4096 4096 64 none 1 pdl > $OUT/ctas_64.txt 2>&1; tail -3 $OUT/ctas_64.txt
