# Session 20, call 8: the split model's GPC term (clusters of a cluster-summed split share the
# GPCs: the busiest GPC streams ceil(clusters / 8) clusters' operands at 0.6 TB/s). GPU tests of the
# new build; the splitk suite with the old (59ea4bf) and new benchmark binaries alternating, two
# rounds, automatic and forced cluster sums; the decode shapes with forced cluster sums (their
# swap-AB tile choice moves); and the graph bench (turn order rotating per round) twice.
set -u
NEW=build-probe/s20new OLD=build-probe/s20old
find $NEW $OLD -name '*.gz' -exec gunzip -f {} +
chmod +x $NEW/*/* $OLD/*/*
timeout 300 $NEW/tests/graphgemm_gpu_tests > $OUT/gtest.log 2>&1; echo "gtest rc $?: $(grep -E '^\[  (PASSED|FAILED)' $OUT/gtest.log | tr '\n' ' ')"
for r in 1 2; do
  for v in old new; do
    B=$OLD; [ $v = new ] && B=$NEW
    timeout 150 $B/bench/graphgemm_bench --suites splitk --dtypes bf16 --no-peak --out $OUT/splitk_${v}_r$r \
      --backends cublaslt,sm90,sm90:none,sm90:parallel:auto:c2,sm90:parallel:auto:c4,sm90:parallel:auto:c8 > $OUT/splitk_${v}_r$r.log 2>&1
    echo "splitk $v round $r rc $?"
  done
done
for v in old new; do
  B=$OLD; [ $v = new ] && B=$NEW
  timeout 150 $B/bench/graphgemm_bench --suites llm --max-m 16 --dtypes bf16 --no-peak --out $OUT/decode_$v \
    --backends cublaslt,sm90,sm90:parallel:auto:c2,sm90:parallel:auto:c4 > $OUT/decode_$v.log 2>&1
  echo "decode $v rc $?"
done
for r in 1 2; do
  timeout 200 $NEW/bench/graphgemm_graph_bench --out $OUT/graph_r$r > $OUT/graph_r$r.log 2>&1
  echo "graph bench round $r rc $?"; grep -E "^Goals|ours \(graph::KernelNode\)|plain replay" $OUT/graph_r$r/graph_bench.md | cut -c1-200
done
cd $OUT && tar czf results.tgz splitk_* decode_* graph_r* && rm -rf splitk_old_r* splitk_new_r* decode_old decode_new graph_r1 graph_r2 splitk_*.log decode_*.log graph_r*.log
