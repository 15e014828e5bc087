# Session 20, call 7: the whole-block epilogue (cooperative tiles whose staging buffers hold the
# whole 64-row block: one wait, one fence, two barriers) in the library build. GPU tests and the
# sanitizers on the epilogue tests (new build), the trace A/B, then the suites with the old (HEAD)
# and new benchmark binaries alternating, two rounds.
set -u
NEW=build-probe/s20new OLD=build-probe/s20old
find $NEW $OLD -name '*.gz' -exec gunzip -f {} +
chmod +x $NEW/*/* $OLD/*/*
timeout 400 $NEW/tests/graphgemm_gpu_tests > $OUT/gtest.log 2>&1; echo "gtest rc $?: $(grep -E '^\[  (PASSED|FAILED)' $OUT/gtest.log | tr '\n' ' ')"
OUT=$OUT bash bench/results/h100/experiments_s20/epilogue_batch/sanitize_epilogues.sh $NEW/tests/graphgemm_gpu_tests
bash bench/results/h100/experiments_s20/epilogue_batch/trace.sh > $OUT/trace.txt 2>&1
for r in 1 2; do
  for v in old new; do
    B=$OLD; [ $v = new ] && B=$NEW
    timeout 200 $B/bench/graphgemm_bench --suites square,llm,splitk --dtypes bf16 --backends cublaslt,sm90 --out $OUT/ab_${v}_r$r > $OUT/bench_${v}_r$r.log 2>&1
    echo "bench $v round $r rc $?"
  done
done
cd $OUT && tar czf ab.tgz ab_* bench_*.log && rm -rf ab_old_r* ab_new_r* bench_*.log
