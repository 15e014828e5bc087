#!/usr/bin/env bash
# Session 33, call 2 (issue 3): which of our compute-bound tiles sustains the most TFLOP/s under the
# power cap, beside cuBLASLt (graphgemm_clock_probe, 3 s turns, 2 rounds), and each one's cycles per
# GEMM at locked base clocks (ncu): sustained time = cycles / effective clock.
set -uo pipefail
B=build-probe/s33a
find $B -name '*.gz' -exec gunzip -f {} +; chmod +x $B/bench/*
o=$OUT/call2; mkdir -p $o
K="sm90_bf16_bf16"
BE="cublaslt,sm90,sm90=${K}_128x256x64_s4_c2x1_bk,sm90=${K}_128x256x64_s4_c1x1_bk,sm90=${K}_128x128x64_s6_c2x1_pp_bk,sm90=${K}_128x192x64_s4_c1x1_bk"
timeout 300 $B/bench/graphgemm_clock_probe 8192x8192x8192,4096x4096x4096,6144x6144x6144 $BE 3 2 > $o/clock.txt 2>&1
echo "clock rc=$?"
for shape in 8192x8192x8192 4096x4096x4096; do
  for be in cublaslt sm90 sm90=${K}_128x256x64_s4_c2x1_bk sm90=${K}_128x256x64_s4_c1x1_bk sm90=${K}_128x128x64_s6_c2x1_pp_bk sm90=${K}_128x192x64_s4_c1x1_bk; do
    tag=$(echo ${shape}_$be | tr '=' '_')
    timeout 100 ncu --csv --print-units base --clock-control base --kernel-name regex:'gemm|nvjet' --launch-skip 1 --launch-count 2 \
      --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__cycles_elapsed.avg.per_second,sm__inst_executed.sum,sm__inst_executed_pipe_tensor_op_gmma.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum \
      $B/bench/graphgemm_bench --shape $shape --backends $be --dtypes bf16 --batches 1 --no-peak --out $o/b_$tag > $o/ncu_$tag.csv 2> $o/ncu_$tag.err
    echo "ncu $tag rc=$?"
  done
done
tail -40 $o/clock.txt
cd $OUT && tar czf call2.tgz call2 && rm -rf call2
