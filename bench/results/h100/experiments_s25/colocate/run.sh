#!/usr/bin/env bash
# Session 25, call 4: unsplit cluster-1x1 grids launched in clusters of 2 CTAs with no multicast
# (GRAPHGEMM_DIAG_COLOCATE=2; build-probe/s25b is 7f3dbc3 + the CTA-scope wait + colocate.patch, an
# experiment not in main), so that the two CTAs sharing a B tile sit in one GPC, where the L2
# request coalescer (LRC) can merge their reads (call 3: our explicit A multicast lowered the
# coalescing from 1.48-1.70 to 1.35 sectors delivered per sector read). Bench (square, llm M >= 128;
# cuBLASLt beside ours in every run) with the variable set and unset, alternating, ROUNDS rounds;
# then ncu metrics of both on three shapes.
N=${N:-build-probe/s25b}; ROUNDS=${ROUNDS:-2}
B=$N/bench/graphgemm_bench
[ -f $B.gz ] && gunzip -f $B.gz; chmod +x $B
mkdir -p $OUT/ab
for r in $(seq 1 $ROUNDS); do
  for v in colo plain; do
    e=0; [ $v = colo ] && e=2
    GRAPHGEMM_DIAG_COLOCATE=$e timeout 150 $B --suites square,llm --min-m 128 --dtypes bf16 --no-peak \
      --backends cublaslt,sm90 --out $OUT/ab/${v}_r$r > $OUT/ab/${v}_r$r.log 2>&1
    echo "round $r $v rc=$?"
  done
done
M=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lrc__average_xbar2gpc_sectors_op_read.ratio,dram__bytes_read.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed
for s in 256x7168x16384 4096x4096x4096 256x28672x4096; do
  for e in 0 2; do
    GRAPHGEMM_DIAG_COLOCATE=$e timeout 100 ncu --csv --clock-control none --kernel-name regex:gemm --launch-skip 1 --launch-count 2 \
      --metrics $M $B --shape $s --backends sm90 --dtypes bf16 --batches 1 --no-peak --out $OUT/ab/ncu_b > $OUT/ab/ncu_${s}_$e.csv 2>&1
    echo "ncu $s colocate=$e rc=$?"
  done
done
cd $OUT && tar czf ab.tgz ab && rm -rf ab
