#!/usr/bin/env bash
# Session 32, call 1: is the mostly out-of-bounds A box of the last M tile what makes GEMMs just
# past a multiple of 64 rows slow? Binaries built locally (carried gzipped under build-probe/):
#   nvcc -std=c++20 -arch=sm_90a -O3 -Iinclude -lcuda -o tma_oob_probe tools/diag/tma_oob_probe.cu
#   nvcc -std=c++20 -arch=sm_90a -O3 --expt-relaxed-constexpr -Iinclude -lcuda -o sm90_trace tools/diag/sm90_trace.cu
set -u
bin=/tmp/s32; mkdir -p $bin
for b in sm90_trace tma_oob_probe; do gunzip -c build-probe/$b.gz > $bin/$b; chmod +x $bin/$b; done
o=${OUT:-/tmp/out}; mkdir -p $o
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader | tee $o/device.txt
$bin/tma_oob_probe 4096 96 > $o/oob_96.txt 2>&1
$bin/tma_oob_probe 4096 1 > $o/oob_1.txt 2>&1
{
for tile in 64 64x64; do
  for m in 192 129 160; do
    for pad in none a d ad; do
      env_pad=""
      case $pad in a) env_pad="SM90_TRACE_PAD_A=192";; d) env_pad="SM90_TRACE_PAD_D=192";; ad) env_pad="SM90_TRACE_PAD_A=192 SM90_TRACE_PAD_D=192";; esac
      [ $m = 192 ] && [ $pad != none ] && continue
      echo "=== tile $tile M $m pad $pad"
      env $env_pad $bin/sm90_trace $m 4096 4096 $tile none 1 - 2>&1 | head -2
      env $env_pad $bin/sm90_trace $m 4096 4096 $tile none 1 - 2>&1 | head -1
    done
  done
done
} > $o/trace_pad.txt 2>&1
SM90_TRACE_CTAS=1 $bin/sm90_trace 129 4096 4096 64 none 1 - > $o/trace_ctas_129.txt 2>&1
SM90_TRACE_CTAS=1 $bin/sm90_trace 192 4096 4096 64 none 1 - > $o/trace_ctas_192.txt 2>&1
SM90_TRACE_CTAS=1 SM90_TRACE_PAD_A=192 $bin/sm90_trace 129 4096 4096 64 none 1 - > $o/trace_ctas_129_pada.txt 2>&1
echo "--- oob 96 CTAs"; cat $o/oob_96.txt; echo "--- oob 1 CTA"; cat $o/oob_1.txt
echo "--- trace"; grep -E "===|median" $o/trace_pad.txt | sed -E 's/.*(=== .*)/\1/; s/.*(median [0-9.]+ us).*/   \1/'
