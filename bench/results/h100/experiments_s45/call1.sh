#!/usr/bin/env bash
# Session 45, call 1: the k-split wide tile (256x64 s4: two consumer warpgroups, each wgmma m64n256
# on all 256 tokens and half of each stage's k-steps, their sums added through shared memory)
# beside session 44's wide tile (256x64 s5: m64n128 on 128 tokens each), automatic and cuBLASLt,
# over shapes_wide.json, both B layouts, two rounds; then the swap-AB GPU tests if T is set.
set -u
B=${B:-}
T=${T:-}
D=bench/results/h100/experiments_s45
if [ -n "$B" ]; then
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
f=$B/bench/graphgemm_bench
for r in 1 2; do
for L in kn nk; do
  s=$([ $L = kn ] && echo bn || echo bk)
  S="cublaslt,sm90,sm90=sm90_bf16_bf16_256x64x64_s5_c1x1_sw_${s}:none,sm90=sm90_bf16_bf16_256x64x64_s4_c1x1_sw_${s}:none"
  timeout 150 $f --shapes $D/shapes_wide.json --suites wide --dtypes bf16 --b-layout $L --no-peak --backends "$S" --out $OUT/${L}_r$r > $OUT/${L}_r$r.log 2>&1; echo "$L r$r rc=$?"
done
done
fi
if [ -n "$T" ]; then
[ -x $T/tests/graphgemm_gpu_tests ] || tools/unpack_prebuilt.sh $T
timeout 200 $T/tests/graphgemm_gpu_tests --gtest_brief=1 --gtest_filter='Sm90.SwapAB*' > $OUT/swap_tests.log 2>&1; echo "swap tests rc=$?"; tail -3 $OUT/swap_tests.log
timeout 200 compute-sanitizer --tool racecheck $T/tests/graphgemm_gpu_tests --gtest_filter='Sm90.SwapABKernels' > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"; tail -2 $OUT/racecheck.log
fi
[ -n "$B" ] && for L in kn nk; do for r in 1 2; do echo "== $L r$r"; python3 bench/results/h100/experiments_s44/us_table.py $OUT/${L}_r$r/*.json; done; done
# ncu (N set): launch configuration and tensor-pipe activity of cuBLASLt's kernel and both wide tiles
# at 1024 x 2112 x 7168, B K x N (one eager launch each after the warm-up; clocks unlocked)
if [ -n "${N:-}" ] && [ -n "$B" ]; then
for be in cublaslt sm90=sm90_bf16_bf16_256x64x64_s5_c1x1_sw_bn:none sm90=sm90_bf16_bf16_256x64x64_s4_c1x1_sw_bn:none; do
  tag=$(echo $be | tr ':=' '__')
  timeout 120 ncu --clock-control none --kernel-name regex:'gemm|nvjet|sm90|Kernel' --launch-skip 2 --launch-count 1 \
    --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__cluster_dim_x,launch__cluster_dim_y,launch__shared_mem_per_block_dynamic,launch__registers_per_thread,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,lts__t_sectors_srcunit_tex_op_read.sum,sm__cycles_elapsed.avg.per_second,dram__bytes_read.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__cycles_active.avg \
    $B/bench/graphgemm_bench --shape 1024x2112x7168 --b-layout kn --backends "$be" --dtypes bf16 --batches 1 --no-peak --out $OUT/ncu_b_$tag > $OUT/ncu_$tag.txt 2>&1
  echo "== ncu $be rc=$?"; grep -E "^  [a-zA-Z_]+ |nvjet|sm90_gemm|Kernel|gemm" $OUT/ncu_$tag.txt | grep -v "^==PROF" | cut -c1-150 | head -24
done
fi
