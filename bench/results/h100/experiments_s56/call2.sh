#!/usr/bin/env bash
# Session 56, call 2 (NOT RUN in session 56: no device time left). s56c: the committed library (the
# wave tile weighed after the pair rule, K >= 3584) built with -DBUILD_SHARED_LIBS=ON, so that the GPU
# tests and the bench travel in one call (libgraphgemm.so once; tools/pack_prebuilt.sh's header):
#   PACK_FILES="tests/graphgemm_gpu_tests bench/graphgemm_bench" tools/pack_prebuilt.sh build-probe/s56c build-shared
# Every GPU test; memcheck and racecheck on the last-N-tile test (its 128x144 cases); the 28 shapes of
# 663 whose automatic choice moved to 128x144 (shapes.json 'moved_*', one run per previous choice),
# automatic beside the previous choice forced and cuBLASLt, two rounds with the order reversed; then
# the pair test's shapes ('pairs'): automatic's choice and error beside cuBLASLt.
set -u
B=${B:-build-probe/s56c}
tools/unpack_prebuilt.sh $B
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s56
G=$B/tests/graphgemm_gpu_tests
X=$B/bench/graphgemm_bench
timeout 200 $G > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|tests ran" $OUT/gtest.log | tail -8
timeout 150 compute-sanitizer --tool memcheck $G --gtest_filter='Sm90.LastNTileMatchesAFullTileBitwise' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
tail -2 $OUT/memcheck.log
timeout 150 compute-sanitizer --tool racecheck $G --gtest_filter='Sm90.LastNTileMatchesAFullTileBitwise' > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"
tail -2 $OUT/racecheck.log
while read -r suite old; do
  timeout 100 $X --shapes $D/shapes.json --suites $suite --dtypes bf16 --no-peak --backends "cublaslt,sm90,sm90=$old:none" --out $OUT/${suite}_r1 > $OUT/${suite}_r1.log 2>&1; echo "$suite r1 rc=$?"
  timeout 100 $X --shapes $D/shapes.json --suites $suite --dtypes bf16 --no-peak --backends "sm90=$old:none,sm90,cublaslt" --out $OUT/${suite}_r2 > $OUT/${suite}_r2.log 2>&1; echo "$suite r2 rc=$?"
done < $D/groups.txt
python3 $D/ab_table.py $OUT/moved_*_r1/gemm_bf16.json -- $OUT/moved_*_r2/gemm_bf16.json | tee $OUT/table_moved.txt
timeout 60 $X --shapes $D/shapes.json --suites pairs --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/pairs > $OUT/pairs.log 2>&1; echo "pairs rc=$?"
python3 -c "
import json,sys
for r in json.load(open(sys.argv[1]))['rows']:
    print(r['M'], r['N'], r['K'], 'err %.2e' % r['rel_error']['sm90'], r['config']['sm90'].split(',')[0])" $OUT/pairs/gemm_bf16.json
cd $OUT && tar czf call2.tgz moved_* pairs pairs.log && rm -rf moved_* pairs pairs.log
