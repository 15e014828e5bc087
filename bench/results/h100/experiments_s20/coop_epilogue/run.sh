# Session 20, call 4: how much of a cooperative 128x256 launch is the epilogue (the tensor cores
# idle while both consumer warpgroups store), at the square shapes where cuBLASLt's 128x256 kernel
# leads ours (2048^3, 4096^3); and the bench's view of the same tiles in one run.
B=build-probe/s20/sm90_trace
for shape in "2048 2048 2048" "4096 4096 4096" "8192 8192 4096"; do
  for tile in 128x256 128; do
    echo "== $tile $shape"
    $B $shape $tile none 1 - 1 - - | grep -vE "SMs of the"
  done
done
K=sm90_bf16_bf16_128x256x64_s4_c1x1_bk
for shape in 2048x2048x2048 4096x4096x4096 6144x6144x6144; do
  build/bench/graphgemm_bench --shape $shape --dtypes bf16 --no-peak --out $OUT/bench_$shape \
    --backends cublaslt,sm90,sm90=$K:none,sm90=sm90_bf16_bf16_128x256x64_s4_c2x1_bk:none,sm90=sm90_bf16_bf16_128x128x64_s6_c1x1_bk:none 2>&1 | grep "^\[" 
done
