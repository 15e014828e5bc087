#!/usr/bin/env bash
# Session 27, call 2: the CTAs drift apart in k (call 1: run.sh; the CTAs sharing an A tile issue
# k-block 224 over 2-2.5 us, p90 - p10, ~6 k-blocks). Does bounding the drift make their A requests
# merge (ncu: lrc__average_xbar2gpc_sectors_op_read.ratio, lts__t_sectors_srcunit_tex_op_read.sum)
# and the kernel faster? The experiment's fuzzy barrier (sm90_gemm.cuh fuzzy_sync, trace builds
# only): SM90_TRACE_SYNC=P,L, every P k-blocks, at most L checkpoints ahead of the slowest CTA.
T=${TRACE:-build-probe/s27t/sm90_trace}
mkdir -p $OUT/s
shapes="256x7168x16384 256x6144x4096"
for r in 1 2; do
  for sh in $shapes; do
    for c in 128 128x112c2x1; do
      for sy in 0,1 1,1 1,2 2,1 4,1 1,4; do
        f=$OUT/s/r${r}_${sh}_${c}_${sy/,/-}
        SM90_TRACE_SYNC=$sy SM90_TRACE_KB=$f.csv $T ${sh//x/ } $c > $f.txt 2>&1
        echo "r$r $sh $c sync=$sy $(grep -o 'median [0-9.]* us' $f.txt) $(grep -A5 'k-block issue' $f.txt | tail -1)"
      done
    done
  done
done
M=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lrc__average_xbar2gpc_sectors_op_read.ratio,lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active
for sh in 256x7168x16384; do
  for c in 128 128x112c2x1; do
    for sy in 0,1 1,1 2,1; do
      SM90_TRACE_SYNC=$sy timeout 120 ncu --csv --clock-control none --kernel-name regex:sm90_gemm_kernel --launch-skip 2 --launch-count 1 \
        --metrics $M $T ${sh//x/ } $c > $OUT/s/ncu_${sh}_${c}_${sy/,/-}.csv 2>&1
      echo "ncu $sh $c sync=$sy rc=$?: $(grep '^"0"' $OUT/s/ncu_${sh}_${c}_${sy/,/-}.csv | awk -F'","' '{printf "%s=%s ", $(NF-2), $NF}')"
    done
  done
done
cd $OUT && tar czf s.tgz s && rm -rf s
