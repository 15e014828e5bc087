#!/usr/bin/env bash
# Session 25, call 5: tile raster order at llm M = 128 / 256. Calls 3-4 (ncu): our unclustered
# kernels get 1.5-1.8 sectors delivered per L2 sector read (the GPC's L2 request coalescer, LRC),
# and raster groups of 8 along M give each GPC's CTAs one shared A tile (session 19: groups of
# 16-32 up to 1.4x slower). At M = 256 (two M tiles) the two CTAs sharing a B tile are neighbours
# in the grid, in different GPCs; groups of 8 along N put them 8 apart, in one GPC if CTAs go to the
# GPCs round robin. Bench (llm M = 128 / 256; cuBLASLt beside ours; automatic with the automatic
# order, 8 / 4 along N, 4 along M), ROUNDS rounds; then ncu on three M = 256 shapes, both orders.
B=${BUILD:-build-probe/s25a}/bench/graphgemm_bench; ROUNDS=${ROUNDS:-2}
[ -f $B.gz ] && gunzip -f $B.gz; chmod +x $B
mkdir -p $OUT/r
for r in $(seq 1 $ROUNDS); do
  timeout 120 $B --suites llm --min-m 128 --max-m 256 --dtypes bf16 --no-peak \
    --backends cublaslt,sm90,sm90+rn8,sm90+rn4,sm90+rm4 --out $OUT/r/r$r > $OUT/r/r$r.log 2>&1
  echo "round $r rc=$?"
done
M=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lrc__average_xbar2gpc_sectors_op_read.ratio,dram__bytes_read.sum,lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed
for s in 256x7168x16384 256x6144x4096 256x8192x8192; do
  for b in sm90 sm90+rn8; do
    timeout 100 ncu --csv --clock-control none --kernel-name regex:gemm --launch-skip 1 --launch-count 2 \
      --metrics $M $B --shape $s --backends $b --dtypes bf16 --batches 1 --no-peak --out $OUT/r/ncu_b > $OUT/r/ncu_${s}_$b.csv 2>&1
    echo "ncu $s $b rc=$?"
  done
done
cd $OUT && tar czf r.tgz r && rm -rf r
