#!/usr/bin/env bash
# Session 50, call 1 (s50a: GemmOptions::b_ready_at_launch, bench suffix +bready): automatic with and
# without B loaded ahead of the programmatic wait, beside cuBLASLt, in one run, two rounds (the
# backends' order reversed in round 2): llm M <= 256 and splitk (where automatic launches
# programmatically), then square + llm M >= 1024 once (where it mostly does not).
set -u
B=${B:?}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
D=bench/results/h100/experiments_s50
timeout 200 $B/bench/graphgemm_bench --suites llm,splitk --max-m 256 --dtypes bf16 \
  --backends cublaslt,sm90,sm90+bready --out $OUT/r1 > $OUT/r1.log 2>&1; echo "r1 rc=$?"
timeout 200 $B/bench/graphgemm_bench --suites llm,splitk --max-m 256 --dtypes bf16 \
  --backends cublaslt,sm90+bready,sm90 --out $OUT/r2 > $OUT/r2.log 2>&1; echo "r2 rc=$?"
timeout 150 $B/bench/graphgemm_bench --suites square,llm --min-m 1024 --dtypes bf16 \
  --backends cublaslt,sm90,sm90+bready --out $OUT/big > $OUT/big.log 2>&1; echo "big rc=$?"
grep -i "fail\|mismatch\|error" $OUT/r1.log $OUT/r2.log $OUT/big.log | head -5
python3 $D/ab_table.py $OUT/r1/gemm_bf16.json $OUT/r2/gemm_bf16.json $OUT/big/gemm_bf16.json > $OUT/ab.txt
grep "^  " $OUT/ab.txt
cd $OUT && tar czf r.tgz r1 r2 big && rm -rf r1 r2 big
