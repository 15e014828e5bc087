#!/usr/bin/env bash
# Session 32, call 8 (the final build): sm90_gemm_check (every instance, fp64 reference, poisoned D)
# and the GEMM chain sweep (every tile bit for bit against the layers as plans) at M past 64 / 128.
# Binaries: PACK_FILES="tools/sm90_gemm_check bench/graphgemm_chain_sweep" tools/pack_prebuilt.sh build-probe/s32c
set -u
b=build-probe/s32c
find $b -name '*.gz' -exec gunzip -f {} + ; find $b -type f -exec chmod +x {} +
o=${OUT:-/tmp/out}; mkdir -p $o
nvidia-smi --query-gpu=name --format=csv,noheader > $o/device.txt
timeout 300 $b/tools/sm90_gemm_check > $o/check.log 2>&1; echo "check rc=$?" > $o/summary.txt
grep -E "PASSED|FAILED|failure" $o/check.log | tail -2 >> $o/summary.txt
timeout 200 $b/bench/graphgemm_chain_sweep --hidden 1024,4096 --m 1,65,129,160,192,200,256 --tiles auto,sm90_bf16_bf16_64x64x64_s13_c1x1_bk,sm90_bf16_bf16_64x128x64_s8_c1x1_bk,sm90_bf16_bf16_64x64x64_s13+64x128x64_s8_c1x1_bk > $o/chain_sweep.txt 2>&1
echo "chain sweep rc=$?" >> $o/summary.txt
cat $o/summary.txt; tail -30 $o/chain_sweep.txt
