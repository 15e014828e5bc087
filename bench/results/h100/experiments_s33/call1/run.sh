#!/usr/bin/env bash
# Session 33, call 1 (issue 3): how close cuBLASLt and ours run to the tensor cores' limit on the
# compute-bound shapes. (1) sustained throughput with SM clock and power (graphgemm_clock_probe),
# (2) ncu at base clocks (locked): tensor-pipe active cycles as a share of elapsed, instructions.
set -uo pipefail
B=build-probe/s33a
find $B -name '*.gz' -exec gunzip -f {} +; chmod +x $B/bench/*
o=$OUT/call1; mkdir -p $o
nvidia-smi -q -d POWER,CLOCK > $o/smi_q.txt 2>&1
ncu --query-metrics --chip gh100 > $o/metrics.txt 2>&1
grep -iE "gmma|tensor_op|pipe_tensor" $o/metrics.txt | awk '{print $1}' > $o/tensor_metrics.txt
cat $o/tensor_metrics.txt | head -40
timeout 200 $B/bench/graphgemm_clock_probe 8192x8192x8192,4096x4096x4096,6144x6144x6144,4096x28672x4096,2048x2048x2048 cublaslt,sm90 3 2 > $o/clock.txt 2>&1
echo "clock rc=$?"
# ncu metrics: keep those present on this chip
want="gpu__time_duration.sum sm__cycles_elapsed.avg sm__cycles_elapsed.avg.per_second sm__inst_executed.sum"
for base in sm__pipe_tensor_op_gmma_cycles_active sm__pipe_tensor_op_hmma_cycles_active sm__pipe_tensor_cycles_active sm__pipe_shared_cycles_active; do
  grep -qx "$base" $o/tensor_metrics.txt $o/metrics.txt 2>/dev/null
  if awk '{print $1}' $o/metrics.txt | grep -qx "$base"; then want="$want $base.avg.pct_of_peak_sustained_elapsed $base.avg.pct_of_peak_sustained_active"; fi
done
for base in sm__inst_executed_pipe_tensor_op_gmma sm__ops_path_tensor_src_bf16_dst_fp32; do
  if awk '{print $1}' $o/metrics.txt | grep -qx "$base"; then want="$want $base.sum"; fi
done
metrics=$(echo $want | tr ' ' ',')
echo "metrics: $metrics" | tee $o/ncu_metrics_used.txt
for shape in 8192x8192x8192 4096x4096x4096 2048x2048x2048 1024x1024x1024 1024x4096x4096; do
  for be in cublaslt sm90; do
    timeout 120 ncu --csv --print-units base --clock-control base --kernel-name regex:'gemm|nvjet|xmma|sm90' --launch-skip 1 --launch-count 2 \
      --metrics $metrics $B/bench/graphgemm_bench --shape $shape --backends $be --dtypes bf16 --batches 1 --no-peak --out $o/b_${shape}_$be \
      > $o/ncu_${shape}_$be.csv 2> $o/ncu_${shape}_$be.err
    echo "ncu $shape $be rc=$?"
  done
done
cd $OUT && tar czf call1.tgz call1 && rm -rf call1
