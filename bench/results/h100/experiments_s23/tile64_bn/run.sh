#!/usr/bin/env bash
# Session 23, calls 2-4 (issues 3 and 6): the 64x64 tile for B stored K x N, and session 22's 128x128
# cluster-sum floor (experiments_s22/cluster/offline/cluster.patch), prebuilt here (build-probe/s23a).
#  1. GPU tests and sm90_gemm_check on the new build (every instance, the new _bn 64x64 ones included).
#  2. Every automatic choice that moves (verify_nk.txt, verify_kn.txt: bf16, "MxNxK OLD NEW"), old and
#     new forced in the new binary beside cuBLASLt and automatic, two rounds.
#  3. llm M <= 256 and splitk with B stored K x N, the old binary (build-probe/s22g, fee70d7) and the
#     new one alternating, two rounds.
# PARTS (default "tests verify suites") and ROUNDS (default "1 2") pick what one call runs.
N=${N:-build-probe/s23a}; O=${O:-build-probe/s22g}
PARTS=${PARTS:-"tests verify suites"}; ROUNDS=${ROUNDS:-"1 2"}
D=bench/results/h100/experiments_s23/tile64_bn
for f in $N/tests/graphgemm_gpu_tests $N/tools/sm90_gemm_check $N/bench/graphgemm_bench $O/bench/graphgemm_bench; do
  [ -f $f.gz ] && gunzip -f $f.gz; chmod +x $f
done
if [[ " $PARTS " == *" tests "* ]]; then
timeout 300 $N/tests/graphgemm_gpu_tests --gtest_brief=1 > $OUT/gtest.log 2>&1; echo "gtest rc $? $(grep -E '^\[  (PASSED|FAILED)' $OUT/gtest.log | tr '\n' ' ')"
timeout 300 $N/tools/sm90_gemm_check > $OUT/check.log 2>&1; echo "check rc $? $(tail -1 $OUT/check.log)"
fi
[[ " $PARTS " == *" verify "* ]] && for r in $ROUNDS; do
  for lay in nk kn; do
    grep -v '^#' $D/verify_$lay.txt | while read shape old new; do
      timeout 60 $N/bench/graphgemm_bench --shape $shape --dtypes bf16 --no-peak --b-layout $lay --out $OUT/v_${lay}_${shape}_r$r \
        --backends "cublaslt,sm90,sm90=sm90_bf16_bf16_$old,sm90=sm90_bf16_bf16_$new" > $OUT/v_${lay}_${shape}_r$r.log 2>&1
      echo "round $r $lay $shape rc $?"
    done
  done
done
# The old binary's automatic choice on the same shapes (where the old choice forced by name cannot run:
# clusters beyond the GPU's co-resident capacity, which automatic itself never launches), one round.
[[ " $PARTS " == *" verify "* ]] && for lay in nk kn; do
  grep -v '^#' $D/verify_$lay.txt | while read shape old new; do
    timeout 60 $O/bench/graphgemm_bench --shape $shape --dtypes bf16 --no-peak --b-layout $lay --out $OUT/vo_${lay}_${shape} \
      --backends sm90 > $OUT/vo_${lay}_${shape}.log 2>&1
  done
done
[[ " $PARTS " == *" suites "* ]] && for r in $ROUNDS; do
  for v in old new; do
    X=$N; [ $v = old ] && X=$O
    timeout 150 $X/bench/graphgemm_bench --suites llm,splitk --max-m 256 --dtypes bf16 --b-layout kn --backends cublaslt,sm90 \
      --out $OUT/suite_${v}_r$r > $OUT/suite_${v}_r$r.log 2>&1
    echo "suite kn $v round $r rc $?"
  done
done
cd $OUT && tar czf results.tgz $(ls -d gtest.log check.log v_* vo_* suite_* 2>/dev/null) && rm -rf v_* vo_* suite_*
