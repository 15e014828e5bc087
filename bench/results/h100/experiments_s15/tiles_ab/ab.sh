#!/usr/bin/env bash
# Session 15: tiles 128x112, 128x96, 64x112, 64x96 (B N x K) for one-wave grids of M = 128 / 256.
# GPU tests and the check tool on the new build, SASS main loops, sanitizers on the new tiles, a
# forced sweep of the new tiles over llm M <= 1024 and square, then A/B against 83b0caa (old),
# square + llm + splitk, three alternating rounds.
set -u
d=build-probe/s15a
find $d -name '*.gz' -exec gunzip -f {} +; chmod +x $d/*/*
timeout 300 $d/tests/graphgemm_gpu_tests > $OUT/gtest.log 2>&1; echo "gtest rc $?"; tail -3 $OUT/gtest.log
timeout 200 $d/tools/sm90_gemm_check > $OUT/sm90_check.log 2>&1; echo "check rc $?"; tail -1 $OUT/sm90_check.log
python3 tools/diag/sass_mainloop.py $d/bench/graphgemm_bench > $OUT/sass.log 2>&1; echo "sass rc $?"; grep -E "x112x|x96x" $OUT/sass.log | head -8; tail -2 $OUT/sass.log
for t in memcheck racecheck; do
  timeout 240 compute-sanitizer --tool $t --error-exitcode 1 $d/tests/graphgemm_gpu_tests --gtest_filter='Sm90.PartialChunkTilesEveryEpilogueAndOutputType' > $OUT/san_$t.log 2>&1
  echo "$t rc $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $OUT/san_$t.log | tail -1
done
k=sm90=sm90_bf16_bf16
$d/bench/graphgemm_bench --suites llm,square --max-m 1024 --dtypes bf16 --no-peak \
  --backends cublaslt,sm90,${k}_128x128x64_s6_c1x1,${k}_64x128x64_s8_c1x1,${k}_128x112x64_s6_c1x1,${k}_128x96x64_s6_c1x1,${k}_64x112x64_s9_c1x1,${k}_64x96x64_s10_c1x1,${k}_128x176x64_s5_c1x1 \
  --out $OUT/sweep > $OUT/sweep.log 2>&1 || echo "sweep failed"
for r in 1 2 3; do
  for v in new old; do
    b=$d/bench/graphgemm_bench; [ $v = old ] && b=$d/old/graphgemm_bench
    $b --suites square,llm,splitk --dtypes bf16 --backends cublaslt,sm90 --no-peak --out $OUT/${v}$r > $OUT/${v}$r.log 2>&1 || echo "bench $v$r failed"
  done
  python3 tools/diag/compare_bench.py $OUT/new$r/gemm_bf16.json $OUT/old$r/gemm_bf16.json --threshold 0.02
done
cd $OUT && tar czf ab.tgz sweep new1 old1 new2 old2 new3 old3 && rm -rf sweep new? old?
