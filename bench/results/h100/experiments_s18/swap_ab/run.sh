#!/usr/bin/env bash
# Session 18, calls 4 and 5: the new build (swap-AB 16x64x256 / 32x64x256 and the heuristic that picks
# them; build-probe/s18b) against the old (build-probe/s18a: the same instances plus 16x128x128 /
# 32x128x128, the old heuristic): GPU tests and the kernel check of the new build, then the decode
# shapes (M <= 32 of llm and splitk: the only ones the change moves) with old and new alternating.
set -uo pipefail
cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
OUT_ALL=$OUT
mkdir -p $OUT_ALL/run
OUT=$OUT_ALL/run BUILD=build-probe/s18b STEPS="test check" tools/device_run.sh > $OUT_ALL/device_run.log 2>&1
echo "device_run rc $?"
gunzip -c build-probe/s18a/bench/graphgemm_bench.gz > /tmp/bench_old && chmod +x /tmp/bench_old
gunzip -c build-probe/s18b/bench/graphgemm_bench.gz > /tmp/bench_new 2>/dev/null || cp build-probe/s18b/bench/graphgemm_bench /tmp/bench_new
chmod +x /tmp/bench_new
for round in 1 2; do
  for v in old new; do
    /tmp/bench_$v --suites llm,splitk --max-m 32 --dtypes bf16 --no-peak --backends cublaslt,sm90,sol \
      --out $OUT_ALL/${v}$round > $OUT_ALL/${v}$round.log 2>&1; echo "$v $round rc $?"
  done
done
for s in 32x2112x7168 32x4096x14336 8x2112x7168 24x4096x4096; do
  /tmp/bench_new --shape $s --dtypes bf16 --no-peak --out $OUT_ALL/shape_$s \
    --backends cublaslt,sm90,sm90=sm90_bf16_bf16_32x64x64_s18_c1x1_sw_bk:none,sm90=sm90_bf16_bf16_32x64x256_s4_c1x1_sw_bk:none,sm90=sm90_bf16_bf16_16x64x64_s20_c1x1_sw_bk:none,sm90=sm90_bf16_bf16_16x64x256_s5_c1x1_sw_bk:none \
    > $OUT_ALL/shape_$s.log 2>&1; echo "shape $s rc $?"
done
cd $OUT_ALL && tar czf results.tgz --exclude=results.tgz . && ls
