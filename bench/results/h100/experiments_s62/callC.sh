#!/usr/bin/env bash
# Session 62, calls C and D (as run, but for this tar line: its --exclude options came after the
# names, tar failed and the suites' JSON did not come back; ab.txt did): the main loops' wgmma descriptors advanced on their low word from the
# stage's (desc_advance; s62b) against the library before it (s62a = HEAD 4977787, whose B N x K
# decisions s62b keeps). The device tree holds one packed library (64 MiB), so two calls on one warm
# machine: the first keeps s62a outside the tree (/tmp/gg_base), the second runs both in turn.
#   PART=base B=build-probe/s62a: s62a to /tmp/gg_base; the default suites on it (round 0).
#   PART=new  B=build-probe/s62b: every GPU test and sm90_gemm_check --quick on s62b; then, where
#     /tmp/gg_base is there, the default suites new / base / new / base (bf16, B N x K, cuBLASLt beside
#     automatic in each run: the ratios are what compare), and 'square' sustained (400 ms) on both.
set -u
B=${B:?B=build-probe/s62a or s62b}
PART=${PART:?PART=base or new}
source tools/device_call_env.sh
G=/tmp/gg_base
suites() {  # suites LIBDIR BENCH OUTNAME [extra bench args]
  local lib=$1 x=$2 name=$3; shift 3
  LD_LIBRARY_PATH=$lib timeout 150 $x --dtypes bf16 --backends cublaslt,sm90 --out $OUT/$name "$@" > $OUT/$name.log 2>&1
  echo "$name rc=$? $(python3 tools/diag/suite_summary.py $OUT/$name/gemm_bf16.json | tr '\n' '|' | cut -c1-400)"
}
if [ "$PART" = base ]; then
  rm -rf $G && cp -r $B $G
  suites $G $G/bench/graphgemm_bench base0
  (cd $OUT && tar czf base0.tgz base0 base0.log && rm -rf base0 base0.log)
  exit 0
fi
timeout 200 $T > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|SKIPPED \]" $OUT/gtest.log | head -8
timeout 150 $B/tools/sm90_gemm_check --quick > $OUT/check.log 2>&1; echo "check rc=$? $(tail -n 1 $OUT/check.log)"
if [ ! -d $G ]; then echo "no $G (the machine was not warm): no A/B"; exit 0; fi
N=$PWD/$B
suites $N $X new1
suites $G $G/bench/graphgemm_bench base1
suites $N $X new2
suites $G $G/bench/graphgemm_bench base2
suites $N $X newsus --suites square --sustain-ms 400
suites $G $G/bench/graphgemm_bench basesus --suites square --sustain-ms 400
python3 bench/results/h100/experiments_s62/ab_suites.py $OUT > $OUT/ab.txt; cat $OUT/ab.txt
(cd $OUT && tar czf suites.tgz new1 base1 new2 base2 newsus basesus new1.log base1.log new2.log base2.log newsus.log basesus.log && rm -rf new1 base1 new2 base2 newsus basesus new1.log base1.log new2.log base2.log newsus.log basesus.log)
