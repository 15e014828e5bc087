set -u
cd build-probe/ab && for f in *.gz; do gunzip -kf $f; done; chmod +x old_bench new_bench new_graphgemm_gpu_tests new_sm90_gemm_check; cd ../..
mkdir -p $OUT/r
timeout 200 build-probe/ab/new_graphgemm_gpu_tests --gtest_brief=1 > $OUT/r/gtest.log 2>&1; echo "gtest rc $?"; tail -3 $OUT/r/gtest.log
timeout 120 build-probe/ab/new_sm90_gemm_check --quick > $OUT/r/check.log 2>&1; echo "check rc $?"; tail -2 $OUT/r/check.log
for r in 1 2; do for v in old new; do
  build-probe/ab/${v}_bench --shapes bench/shapes.json --suites splitk,square,llm --max-m 1024 --dtypes bf16 --no-peak --backends cublaslt,sm90,sm90+pdl --out $OUT/r/${v}$r 2>&1 | tail -1
done; done
tar czf $OUT/ab.tgz -C $OUT r && rm -rf $OUT/r
