#!/usr/bin/env bash
# Session 26, call 5: the three splitk shapes where cuBLASLt leads (128x256x32768 0.91x,
# 256x256x16384 0.87x, 128x1536x7168 0.89x; session 25's final run) with every cooperative tile
# forced at the slice counts that fill one wave, parallel and serial, beside cuBLASLt and the
# automatic choice (the split-K table of session 21 swept only the automatic tile's slices); ROUNDS
# rounds. Then ncu on cuBLASLt's and our kernel at two llm M = 256 shapes (L2 sectors read, the
# GPCs' request coalescing, tensor pipe activity), to see whether cuBLASLt's lead there comes with
# fewer L2 reads.
B=${BUILD:-build-probe/s25c}/bench/graphgemm_bench; ROUNDS=${ROUNDS:-2}
[ -f $B.gz ] && gunzip -f $B.gz; chmod +x $B
K=sm90=sm90_bf16_bf16
t64=${K}_64x64x64_s13_c1x1_bk; t128=${K}_64x128x64_s8_c1x1_bk; q128=${K}_128x128x64_s6_c1x1_bk
declare -A cfg
cfg[256x256x16384]="$t64:parallel:4,$t64:parallel:8,$t64:serial:4,$t64:serial:8,$t128:parallel:16,$q128:parallel:16,$q128:parallel:32"
cfg[128x256x32768]="$t64:parallel:8,$t64:parallel:16,$t64:serial:8,$t128:parallel:8,$t128:parallel:32,$q128:parallel:32,$q128:parallel:64"
cfg[128x1536x7168]="$t64:parallel:2,$t128:parallel:4,$t128:parallel:5,$t128:serial:4,$t128:serial:5,$q128:parallel:8,$q128:parallel:10"
mkdir -p $OUT/s
for r in $(seq 1 $ROUNDS); do
  for s in 256x256x16384 128x256x32768 128x1536x7168; do
    timeout 120 $B --shape $s --dtypes bf16 --no-peak --backends "cublaslt,sm90,${cfg[$s]}" \
      --out $OUT/s/r${r}_$s > $OUT/s/r${r}_$s.log 2>&1
    echo "round $r $s rc=$?"
  done
done
M=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lrc__average_xbar2gpc_sectors_op_read.ratio,dram__bytes_read.sum,lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__cluster_dim_x,launch__cluster_dim_y
for s in 256x7168x16384 256x6144x4096; do
  for b in cublaslt sm90; do
    timeout 100 ncu --csv --clock-control none --kernel-name regex:'gemm|nvjet' --launch-skip 1 --launch-count 2 \
      --metrics $M $B --shape $s --backends $b --dtypes bf16 --batches 1 --no-peak --out $OUT/s/ncu_b > $OUT/s/ncu_${s}_$b.csv 2>&1
    echo "ncu $s $b rc=$?"
  done
done
cd $OUT && tar czf s.tgz s && rm -rf s
