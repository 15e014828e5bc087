set -x
B=build/bench/graphgemm_bench
K=sm90_bf16_bf16_128x256x64_s4_c1x1_bk
for round in 1 2; do
$B --suites llm --dtypes bf16 --min-m 128 --max-m 256 --out $OUT/m256_r$round \
  --backends cublaslt,sm90,sm90=$K:none,sm90=$K:parallel:2,sm90=$K:serial:2,sm90=$K:parallel:2:c2,sm90=sm90_bf16_bf16_64x256x64_s4_c1x1_pp_bk:none 2>&1 | tail -3
done
cd $OUT && tar czf m256.tgz m256_r* && rm -rf m256_r1 m256_r2
