#!/usr/bin/env bash
# Session 32, call 7: the final build (the tile's A descriptor built from the moved address; see
# docs/sm90_notes.md "Session 32") against HEAD 9ee402b's kernels (old: ac6e02d's graphgemm_bench):
# GPU tests, memcheck / racecheck on the new test, then M x 4096 x 4096, the `ragged` suite (old reads
# it as its `llm` suite from a copy of shapes.json) and the llm / square / splitk suites, new and old
# alternating, two rounds. sm90_gemm_check runs in call 8 (the carry limit).
# Binaries: PACK_FILES="tests/graphgemm_gpu_tests bench/graphgemm_bench" tools/pack_prebuilt.sh build-probe/s32 + old bench.
set -u
b=build-probe/s32
find $b -name '*.gz' -exec gunzip -f {} + ; find $b -type f -exec chmod +x {} +
o=${OUT:-/tmp/out}; mkdir -p $o; t=/tmp/c2; mkdir -p $t
nvidia-smi --query-gpu=name --format=csv,noheader > $o/device.txt
timeout 420 $b/tests/graphgemm_gpu_tests > $t/gtest.log 2>&1; echo "gtest rc=$?" > $o/summary.txt
grep -E "^\[  (PASSED|FAILED) |FAILED  \]|tests ran" $t/gtest.log >> $o/summary.txt
[ -x $b/tools/sm90_gemm_check ] && { timeout 200 $b/tools/sm90_gemm_check --quick > $t/check.log 2>&1; echo "check rc=$?" >> $o/summary.txt; tail -3 $t/check.log >> $o/summary.txt; }
for tool in memcheck racecheck; do
  timeout 300 compute-sanitizer --tool $tool --error-exitcode 1 $b/tests/graphgemm_gpu_tests --gtest_filter='Sm90.LastMTileMatchesAFullTileBitwise' > $t/$tool.log 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $t/$tool.log | tail -1)" >> $o/summary.txt
done
python3 - <<'PY'
import json
d = json.load(open("bench/shapes.json"))
json.dump({"llm": d["ragged"]}, open("/tmp/c2/ragged_as_llm.json", "w"))
PY
K64=sm90_bf16_bf16_64x64x64_s13_c1x1_bk; K128=sm90_bf16_bf16_64x128x64_s8_c1x1_bk
for round in 1 2; do
  for v in new old; do
    bin=$b/bench/graphgemm_bench; [ $v = old ] && bin=$b/old/graphgemm_bench
    for M in 96 128 129 160 192 200 255 256; do
      $bin --shape ${M}x4096x4096 --no-peak --backends cublaslt,sm90,sm90=$K128+nopdl:none,sm90=$K64+nopdl:none --out $t/sq_${v}_$round/m$M > $t/sq_${v}_${round}_m$M.log 2>&1
    done
    if [ $v = new ]; then $bin --suites ragged --no-peak --backends cublaslt,sm90 --out $t/ragged_${v}_$round > $t/ragged_${v}_$round.log 2>&1
    else $bin --shapes /tmp/c2/ragged_as_llm.json --suites llm --no-peak --backends cublaslt,sm90 --out $t/ragged_${v}_$round > $t/ragged_${v}_$round.log 2>&1; fi
    echo "bench $v round $round rc=$?" >> $o/summary.txt
    $bin --suites llm,square,splitk --backends cublaslt,sm90 --out $t/suite_${v}_$round > $t/suite_${v}_$round.log 2>&1
    echo "suite $v round $round rc=$?" >> $o/summary.txt
  done
done
mkdir -p $o/bench
for d in $t/ragged_* $t/suite_*; do [ -d $d ] && cp $d/gemm_bf16.json $o/bench/$(basename $d).json 2>/dev/null; done
(cd $o/bench && tar czf ../bench.tgz *.json && rm -f *.json)
python3 - $t $o <<'PY'
import json, sys, glob, os
t, o = sys.argv[1], sys.argv[2]
rows = {}
for f in sorted(glob.glob(f"{t}/sq_*/m*/gemm_bf16.json")):
    v, rnd = f.split("/")[-3].split("_")[1:3]
    for r in json.load(open(f))["rows"]:
        rows.setdefault(r["M"], {})[f"{v}{rnd}"] = r["us"]
with open(f"{o}/sq.json", "w") as fh: json.dump(rows, fh, indent=1)
PY
tar czf $o/logs.tgz -C $t . --exclude='*.png' 2>/dev/null
cat $o/summary.txt
