#!/usr/bin/env bash
# Session 24, call 2, on HEAD's build (build-probe/s24b: GPU tests, bench, graph bench; its kernels
# are 14eea7b's, whose sm90_gemm_check ran in session 23):
#  1. session 22's final run (the suites with cuBLASLt, ours automatic and unsplit and the speed of
#     light; the split-K table; the graph bench; the GPU tests);
#  2. does the ratio depend on the bench's configuration? the suites with backends cublaslt,sm90
#     and --no-peak (call 1's) against the final run's configuration, alternating, two rounds each;
#  3. stream-K where the tiles leave SMs idle: llm M = 128 / 256 with 128x128 tiles forced unsplit
#     and stream-K (explicit mode), beside automatic and cuBLASLt, two rounds.
B=${BUILD:-build-probe/s24b}
OUT=$OUT BUILD=$B STEPS="test graph sol splitk bench" \
  BENCH_ARGS="--suites square,llm,splitk --dtypes bf16 --backends cublaslt,sm90,sm90:none,sol" BENCH_TIMEOUT=450 \
  tools/device_run.sh
X=$B/bench/graphgemm_bench
mkdir -p $OUT/cfg $OUT/sk
for r in 1 2; do
  timeout 120 $X --suites square,llm,splitk --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/cfg/two_r$r > /dev/null 2>&1
  timeout 200 $X --suites square,llm,splitk --dtypes bf16 --backends cublaslt,sm90,sm90:none,sol --out $OUT/cfg/four_r$r > /dev/null 2>&1
  echo "cfg round $r rc=$?"
done
K128=sm90=sm90_bf16_bf16_128x128x64_s6_c1x1_bk
for r in 1 2; do
  for m in 128 256; do
    timeout 120 $X --suites llm --min-m $m --max-m $m --dtypes bf16 --no-peak \
      --backends "cublaslt,sm90,$K128:none,$K128:streamk" --out $OUT/sk/m${m}_r$r > /dev/null 2>&1
    echo "sk M=$m round $r rc=$?"
  done
done
cd $OUT && tar czf probes.tgz cfg sk && rm -rf cfg sk
