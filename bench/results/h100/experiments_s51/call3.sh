set -u
T=build-probe/s51/sm90_trace
for shape in "4096 4096 4096" "2048 2048 2048" "8192 8192 8192"; do
for cfg in "none 1" "streamk 132"; do
  echo "=== $shape 128x256 $cfg"
  timeout 90 $T $shape 128x256 $cfg 2>&1 | grep -v "cluster sum" | head -14
done; done
SM90_TRACE_CTAS=1 timeout 60 $T 4096 4096 4096 128x256 streamk 132 > $OUT/ctas_sk4096.txt 2>&1
