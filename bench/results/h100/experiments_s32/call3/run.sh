#!/usr/bin/env bash
# Session 32, call 3 (41895bc's build = new; ac6e02d's bench = old, HEAD 9ee402b's kernels):
# every tile forced on the ragged shapes where ours trails (M = 160 / 333 / 1000), sm90_gemm_check
# --quick, then the llm / square / splitk suites old against new, two rounds alternating.
set -u
b=build-probe/s32
find $b -name '*.gz' -exec gunzip -f {} + ; find $b -type f -exec chmod +x {} +
o=${OUT:-/tmp/out}; mkdir -p $o/tiles $o/suites; t=/tmp/c3; mkdir -p $t
nvidia-smi --query-gpu=name --format=csv,noheader > $o/device.txt
tiles="128x112x64_s7_c2x1 128x128x64_s6_c1x1 128x128x64_s6_c1x1_pp 128x128x64_s6_c1x2 128x128x64_s6_c2x1 128x128x64_s6_c2x1_pp 128x136x64_s5_c1x1 128x176x64_s5_c1x1 128x192x64_s4_c1x1 128x256x64_s4_c1x1 128x256x64_s4_c2x1 64x128x64_s8_c1x1 64x256x64_s4_c1x1_pp 64x64x64_s13_c1x1"
be=cublaslt,sm90; for k in $tiles; do be=$be,sm90=sm90_bf16_bf16_${k}_bk:none; done
for s in 160x6144x4096 160x8192x8192 333x6144x4096 333x4096x4096 333x8192x8192 1000x7168x16384 1000x4096x4096; do
  $b/bench/graphgemm_bench --shape $s --no-peak --backends $be --out $t/tiles_$s > $t/tiles_$s.log 2>&1
  cp $t/tiles_$s/gemm_bf16.json $o/tiles/$s.json 2>/dev/null
done
echo "tiles done" > $o/summary.txt
timeout 200 $b/tools/sm90_gemm_check --quick > $t/check.log 2>&1; echo "check rc=$?" >> $o/summary.txt; tail -3 $t/check.log >> $o/summary.txt
for round in 1 2; do
  for v in new old; do
    bin=$b/bench/graphgemm_bench; [ $v = old ] && bin=$b/old/graphgemm_bench
    $bin --suites llm,square,splitk --backends cublaslt,sm90 --out $t/suite_${v}_$round > $t/suite_${v}_$round.log 2>&1
    echo "suite $v $round rc=$? $SECONDS s" >> $o/summary.txt
    cp $t/suite_${v}_$round/gemm_bf16.json $o/suites/${v}_$round.json 2>/dev/null
  done
done
cp $t/check.log $o/ 2>/dev/null
cat $o/summary.txt
