#!/usr/bin/env bash
# Session 14: the cooperative 128x128 tile in 2x1 clusters (B multicast) forced over llm M >= 128
# and square, beside the automatic choice and the 128x128 c1x1 tile; one call.
set -u
d=build-probe/s14e
find $d -name '*.gz' -exec gunzip -f {} +; chmod +x $d/*/*
k=sm90=sm90_bf16_bf16_128x128x64_s6
for r in 1 2; do
$d/bench/graphgemm_bench --suites llm,square --dtypes bf16 --no-peak --backends cublaslt,sm90,${k}_c1x1,${k}_c2x1 --out $OUT/r$r > $OUT/r$r.log 2>&1 || echo "bench failed"
done
timeout 200 $d/tests/graphgemm_gpu_tests --gtest_filter='Sm90.EveryKernelInstance:Sm90SplitK.EveryTileConfiguration' > $OUT/gtest.log 2>&1; echo "gtest rc $?"; tail -2 $OUT/gtest.log
for t in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $t --error-exitcode 1 $d/bench/graphgemm_bench --shape 300x2000x1000 --dtypes bf16 --no-peak \
    --backends ${k}_c2x1 --out $OUT/san_$t > $OUT/san_$t.log 2>&1
  echo "$t rc $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $OUT/san_$t.log | tail -1
done
python3 tools/diag/sass_mainloop.py $d/bench/graphgemm_bench > $OUT/sass.log 2>&1; echo "sass rc $?"; tail -1 $OUT/sass.log
cd $OUT && tar czf c2.tgz r1 r2 && rm -rf r1 r2 san_memcheck san_racecheck
