#!/usr/bin/env bash
# Session 27, call 6: the one-unit 128x128 instances in the library (build-probe/s27a) against
# HEAD's build (build-probe/s25c, whose library is unchanged since session 25): sm90_gemm_check on
# the 12 "_1u" instances, then llm M = 128 / 256, cuBLASLt and automatic, the two
# builds alternating, ROUNDS rounds. Automatic moves to "_1u" wherever it took the 128x128 tile and
# its tiles fit one wave (choose_split, one_unit_twin); every other choice is unchanged (controls).
NEW=${NEW:-build-probe/s27a}; OLD=${OLD:-build-probe/s25c}; ROUNDS=${ROUNDS:-2}
for f in $NEW/bench/graphgemm_bench $NEW/tools/sm90_gemm_check $OLD/bench/graphgemm_bench; do
  [ -f $f.gz ] && gunzip -f $f.gz; chmod +x $f
done
mkdir -p $OUT/ab
timeout 240 $NEW/tools/sm90_gemm_check --filter=_1u > $OUT/ab/check.log 2>&1
echo "check rc=$? $(grep -c FAIL $OUT/ab/check.log) FAIL lines; $(tail -1 $OUT/ab/check.log)"
ARGS="--suites llm --min-m 128 --max-m 256 --dtypes bf16 --backends cublaslt,sm90 --no-peak"
for r in $(seq 1 $ROUNDS); do
  for b in new old; do
    B=$NEW; [ $b = old ] && B=$OLD
    timeout 250 $B/bench/graphgemm_bench $ARGS --out $OUT/ab/${b}_r$r > $OUT/ab/${b}_r$r.log 2>&1
    echo "round $r $b rc=$?"
  done
done
cd $OUT && tar czf ab.tgz ab && rm -rf ab
