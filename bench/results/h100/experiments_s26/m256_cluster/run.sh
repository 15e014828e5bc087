#!/usr/bin/env bash
# Session 26, call 6: cuBLASLt's llm M = 256 configuration in our kernel. ncu (call 5,
# splitk_tiles/): cuBLASLt runs nvjet ..._112x128_64x7_2x1 (256x7168xK) / _96x128_... (256x6144x4096)
# on a (2, 64) grid in clusters of 2 along M: the two M tiles of an N column share B by multicast,
# 128 CTAs; 1.95-1.99 sectors delivered per L2 sector read (ours 1.46 / 1.8), 26% fewer L2 sectors
# read at 256x7168x16384, tensor pipe 82% active on 128 SMs (ours 83% on 112). The experiment build
# (build-probe/s26x: experiment.patch) adds 128x128, 128x112 and 128x96 in 2x1 clusters (B
# multicast), bf16, B N x K. The check tool on them first; then llm M = 128 / 256 with them forced
# beside cuBLASLt, automatic and 128x128 alone, ROUNDS rounds; then ncu on two M = 256 shapes.
BD=${BUILD:-build-probe/s26x}; B=$BD/bench/graphgemm_bench; C=$BD/tools/sm90_gemm_check; ROUNDS=${ROUNDS:-2}
for f in $B $C; do [ -f $f.gz ] && gunzip -f $f.gz; chmod +x $f; done
mkdir -p $OUT/m
timeout 200 $C --filter=c2x1_bk > $OUT/m/check.log 2>&1; echo "check rc=$? $(grep -c FAIL $OUT/m/check.log) FAIL lines"
K=sm90=sm90_bf16_bf16
ks="${K}_128x128x64_s6_c1x1_bk:none,${K}_128x128x64_s6_c2x1_bk:none,${K}_128x112x64_s6_c2x1_bk:none,${K}_128x96x64_s6_c2x1_bk:none"
for r in $(seq 1 $ROUNDS); do
  timeout 200 $B --suites llm --min-m 128 --max-m 256 --dtypes bf16 --no-peak \
    --backends "cublaslt,sm90,$ks" --out $OUT/m/r$r > $OUT/m/r$r.log 2>&1
  echo "round $r rc=$?"
done
M=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lrc__average_xbar2gpc_sectors_op_read.ratio,dram__bytes_read.sum,lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active,launch__grid_size
for s in 256x7168x16384 256x6144x4096; do
  for k in 128x128x64_s6_c2x1_bk 128x112x64_s6_c2x1_bk 128x96x64_s6_c2x1_bk; do
    timeout 100 ncu --csv --clock-control none --kernel-name regex:gemm --launch-skip 1 --launch-count 2 \
      --metrics $M $B --shape $s --backends ${K}_$k:none --dtypes bf16 --batches 1 --no-peak --out $OUT/m/ncu_b > $OUT/m/ncu_${s}_$k.csv 2>&1
    echo "ncu $s $k rc=$?"
  done
done
cd $OUT && tar czf m.tgz m && rm -rf m
