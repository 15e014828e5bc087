#!/usr/bin/env bash
# Session 56, call 2 (NOT RUN in session 56: no device time left; s56c: the committed library, the
# wave tile weighed after the pair rule, K >= 3584): the 28 shapes of 663 whose automatic
# choice moved to 128x144 (shapes.json 'moved_*', one run per previous choice), automatic beside the
# previous choice forced and cuBLASLt, two rounds with the order reversed; then the pair test's shapes
# ('pairs'): automatic's choice and error beside cuBLASLt.
set -u
B=${B:-build-probe/s56c}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s56
X=$B/bench/graphgemm_bench
while read -r suite old; do
  timeout 100 $X --shapes $D/shapes.json --suites $suite --dtypes bf16 --no-peak --backends "cublaslt,sm90,sm90=$old:none" --out $OUT/${suite}_r1 > $OUT/${suite}_r1.log 2>&1; echo "$suite r1 rc=$?"
  timeout 100 $X --shapes $D/shapes.json --suites $suite --dtypes bf16 --no-peak --backends "sm90=$old:none,sm90,cublaslt" --out $OUT/${suite}_r2 > $OUT/${suite}_r2.log 2>&1; echo "$suite r2 rc=$?"
done < $D/groups.txt
python3 $D/ab_table.py $OUT/moved_*_r1/gemm_bf16.json -- $OUT/moved_*_r2/gemm_bf16.json | tee $OUT/moved_table.txt
timeout 60 $X --shapes $D/shapes.json --suites pairs --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/pairs > $OUT/pairs.log 2>&1; echo "pairs rc=$?"
python3 -c "
import json,sys
for r in json.load(open(sys.argv[1]))['rows']:
    print(r['M'], r['N'], r['K'], 'err %.2e' % r['rel_error']['sm90'], r['config']['sm90'].split(',')[0])" $OUT/pairs/gemm_bf16.json
cd $OUT && tar czf call2.tgz moved_* pairs* && rm -rf moved_*_r? pairs
