#!/usr/bin/env bash
# Session 14 A/B: the 64x64 tile and its rule (new) vs b8ce75b (old); square + llm + splitk, two
# alternating rounds; then the SASS main-loop check and the sanitizers on the 64x64 kernel.
set -u
d=build-probe/s14c
find $d -name '*.gz' -exec gunzip -f {} +; chmod +x $d/*/*
for r in 1 2; do
  for v in new old; do
    b=$d/bench/graphgemm_bench; [ $v = old ] && b=$d/old/graphgemm_bench
    $b --suites square,llm,splitk --dtypes bf16 --backends cublaslt,sm90 --no-peak --out $OUT/${v}$r > $OUT/${v}$r.log 2>&1 || echo "bench $v$r failed"
  done
  python3 tools/diag/compare_bench.py $OUT/new$r/gemm_bf16.json $OUT/old$r/gemm_bf16.json --threshold 0.03
done
python3 tools/diag/sass_mainloop.py $d/bench/graphgemm_bench > $OUT/sass.log 2>&1; echo "sass rc $?"; grep -i "64x64" $OUT/sass.log | head -3; tail -2 $OUT/sass.log
for t in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $t --error-exitcode 1 $d/bench/graphgemm_bench --shape 200x2112x1000 --dtypes bf16 --no-peak \
    --backends sm90=sm90_bf16_bf16_64x64x64_s13_c1x1,sm90=sm90_bf16_bf16_64x64x64_s13_c1x1:parallel:4:c1,sm90=sm90_bf16_bf16_64x64x64_s13_c1x1:parallel:4:c4 --out $OUT/san_$t > $OUT/san_$t.log 2>&1
  echo "$t rc $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $OUT/san_$t.log | tail -1
done
cd $OUT && tar czf ab.tgz new1 old1 new2 old2 && rm -rf new1 old1 new2 old2 san_memcheck san_racecheck
