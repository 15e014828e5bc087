#!/usr/bin/env bash
# Session 27, call 3: a fuzzy barrier (call 2, sync.sh) put the CTAs in step and the L2 reads fell to
# cuBLASLt's (256x7168x16384: 22.3 M -> 16.2 M sectors, LRC 1.39 -> 2.05) but cost 1.3-2x the time.
# Hypothesis: CTAs whose consumers wait on A (an L2 hit, merged for the CTAs in step, delivered to
# them together) stay in step by themselves; ours wait on B (DRAM). The experiment (trace builds
# only, SM90_TRACE_ALAG=L): the producer issues a k-block's B when its stage frees and its A L
# k-blocks later, i.e. A (5 - L) stages ahead of its use instead of 5 (a consumer frees a stage
# once its next stage's wgmmas are issued, so L = 5 deadlocks with 6 stages).
# Call 3 ran L = 0, 2, 3, 4 on 256x7168x16384 at 128x128 (then hung at L = 5, not known then):
# in step (k-block 224 issued within 0.16-0.29 us, p90 - p10 0.1-0.26) but slower: 105 -> 143 /
# 176 / 325 us. Call 4 (ALAGS="0 1"): L = 1.
T=${TRACE:-build-probe/s27t/sm90_trace}
mkdir -p $OUT/a
for r in 1 2; do
  for sh in 256x7168x16384 256x6144x4096 4096x4096x4096; do
    cs="128 128x112c2x1"; [ $sh = 4096x4096x4096 ] && cs="128 128x256"
    for c in $cs; do
      for al in ${ALAGS:-0 1}; do
        f=$OUT/a/r${r}_${sh}_${c}_a$al
        SM90_TRACE_ALAG=$al SM90_TRACE_KB=$f.csv $T ${sh//x/ } $c > $f.txt 2>&1
        echo "r$r $sh $c alag=$al $(grep -o 'median [0-9.]* us' $f.txt) $(grep -A5 'k-block issue' $f.txt | tail -1)"
      done
    done
  done
done
M=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lrc__average_xbar2gpc_sectors_op_read.ratio,lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active
for sh in 256x7168x16384 4096x4096x4096; do
  cs="128 128x112c2x1"; [ $sh = 4096x4096x4096 ] && cs="128x256"
  for c in $cs; do
    for al in ${ALAGS:-0 1}; do
      SM90_TRACE_ALAG=$al timeout 120 ncu --csv --clock-control none --kernel-name regex:sm90_gemm_kernel --launch-skip 2 --launch-count 1 \
        --metrics $M $T ${sh//x/ } $c > $OUT/a/ncu_${sh}_${c}_a$al.csv 2>&1
      echo "ncu $sh $c alag=$al rc=$?: $(grep '^"0"' $OUT/a/ncu_${sh}_${c}_a$al.csv | awk -F'","' '{printf "%s=%s ", $(NF-2), $NF}')"
    done
  done
done
cd $OUT && tar czf a.tgz a && rm -rf a
