# Session 21: do the decode grids of 64 swap-AB CTAs (llm M = 1 / 16, N <= 7168) gain from a split
# in two summed in 2-CTA clusters (128 CTAs), or from stages of 4 k-blocks? Forced beside
# automatic and cuBLASLt; two rounds. Bench built from 2806cc8, carried prebuilt.
B=build-probe/s21/bench/graphgemm_bench
gunzip -f $B.gz; chmod +x $B
K16=sm90_bf16_bf16_16x64x64_s20_c1x1_sw_bk
K64=sm90_bf16_bf16_16x64x256_s5_c1x1_sw_bk
for r in 1 2; do
  timeout 250 $B --suites llm --max-m 16 --dtypes bf16 --no-peak --out $OUT/decode_r$r \
    --backends cublaslt,sm90,sm90=$K16:parallel:2:c2,sm90=$K64:none,sm90=$K64:parallel:2:c2 > $OUT/decode_r$r.log 2>&1
  echo "round $r rc $?"; tail -3 $OUT/decode_r$r.log
done
