#!/usr/bin/env bash
# Session 32, call 5: (a) does the mostly out-of-bounds token box of decode GEMMs (M < the tile's
# rows: no in-bounds box exists) cost time? sm90_trace (call 1's build) with A's map padded to the
# tile's rows; (b) the 2x1 pair tiles beyond M = 256 on long-K llm shapes; (c) stream-K on the
# wave-quantized ragged shapes (41895bc's bench).
set -u
b=build-probe/s32; tr=/tmp/s32tr
find $b -name '*.gz' -exec gunzip -f {} + ; find $b -type f -exec chmod +x {} +
mkdir -p $tr; gunzip -c build-probe/sm90_trace.gz > $tr/sm90_trace; chmod +x $tr/sm90_trace
o=${OUT:-/tmp/out}; mkdir -p $o; t=/tmp/c5; mkdir -p $t
{
for c in "1 4096 4096 sw16x64 16" "1 2112 7168 sw16x64x256 16" "1 10240 8192 sw16x128 16" "8 4096 4096 sw16x64 16" "1 4096 4096 64 64" "37 4096 4096 64 64" "37 2112 7168 64x64 64"; do
  set -- $c
  for pad in 0 1; do
    for rep in 1 2; do
      if [ $pad = 1 ]; then r=$(SM90_TRACE_PAD_A=$5 $tr/sm90_trace $1 $2 $3 $4 none 1 - 2>&1 | head -1); else r=$($tr/sm90_trace $1 $2 $3 $4 none 1 - 2>&1 | head -1); fi
      echo "M=$1 N=$2 K=$3 tile $4 padA=$pad: $(echo "$r" | grep -oE 'median [0-9.]+ us')"
    done
  done
done
} > $o/decode_pad.txt 2>&1
P="sm90=sm90_bf16_bf16_128x112x64_s7_c2x1_bk:none,sm90=sm90_bf16_bf16_128x128x64_s6_c2x1_bk:none"
for s in 1024x7168x16384 1000x7168x16384 1024x8192x8192 1024x8192x28672 1024x10240x8192 1024x4096x14336 4096x7168x16384 4096x8192x28672 2048x7168x16384; do
  $b/bench/graphgemm_bench --shape $s --no-peak --backends cublaslt,sm90,$P --out $t/pair_$s > $t/pair_$s.log 2>&1
done
S=""; for k in 128x176x64_s5_c1x1 128x128x64_s6_c1x1 128x256x64_s4_c1x1 128x192x64_s4_c1x1; do S=$S,sm90=sm90_bf16_bf16_${k}_bk:streamk,sm90=sm90_bf16_bf16_${k}_bk:none; done
for s in 333x6144x4096 333x8192x8192 160x6144x4096 1000x7168x16384; do
  $b/bench/graphgemm_bench --shape $s --no-peak --backends cublaslt,sm90$S --out $t/sk_$s > $t/sk_$s.log 2>&1
done
cd $t && tar czf $o/c5.tgz */gemm_bf16.json *.log
cat $o/decode_pad.txt
