# Session 20, call 14: the ping-pong 128x128 tile (automatic's choice on most square / llm M >= 1024
# shapes below 1.6 TFLOP) against the cooperative 128x256 tile in 1x1 and 2x1 clusters and 128x192,
# forced, beside automatic and cuBLASLt; square + llm M >= 1024, two rounds.
B=build-probe/s20t/bench/graphgemm_bench
gunzip -f build-probe/s20t/bench/graphgemm_bench.gz; chmod +x $B
for r in 1 2; do
  timeout 280 $B --suites square,llm --min-m 1024 --dtypes bf16 --out $OUT/sweep_r$r \
    --backends cublaslt,sm90,sm90=sm90_bf16_bf16_128x128x64_s6_c1x1_pp_bk,sm90=sm90_bf16_bf16_128x256x64_s4_c1x1_bk,sm90=sm90_bf16_bf16_128x256x64_s4_c2x1_bk,sm90=sm90_bf16_bf16_128x192x64_s4_c1x1_bk > $OUT/sweep_r$r.log 2>&1
  echo "round $r rc $?"
done
cd $OUT && tar czf sweep.tgz sweep_r* && rm -rf sweep_r1 sweep_r2 sweep_r*.log
