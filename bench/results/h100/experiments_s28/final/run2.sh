#!/usr/bin/env bash
# Session 28, call 8: the committed build (build-probe/s28f: the barrier pad rule only where nothing
# else fits, so only the 7-stage pair's code differs from HEAD's; its barrier address arithmetic
# compiled 8 instructions shorter than in call 6-7's build). GPU tests, memcheck on the partial-chunk
# test (the 7-stage pair on every output type and epilogue), then llm M = 256 with HEAD's bench
# (build-probe/s27b) and this one alternating, ROUNDS rounds, the order swapped every round.
N=${BUILD:-build-probe/s28f}; O=build-probe/s27b; ROUNDS=${ROUNDS:-2}
for f in $N/bench/graphgemm_bench $N/tests/graphgemm_gpu_tests $O/bench/graphgemm_bench; do
  [ -f $f.gz ] && gunzip -f $f.gz; chmod +x $f
done
mkdir -p $OUT/g
T=$N/tests/graphgemm_gpu_tests
timeout 300 $T > $OUT/g/gpu_tests.log 2>&1; echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/g/gpu_tests.log | tr '\n' ' ')"
timeout 250 compute-sanitizer --tool memcheck $T --gtest_filter='Sm90.PartialChunkTilesEveryEpilogueAndOutputType' > $OUT/g/memcheck.log 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $OUT/g/memcheck.log | tr '\n' ' ')"
A="--suites llm --min-m 256 --max-m 256 --dtypes bf16 --no-peak --backends cublaslt,sm90"
for r in $(seq 1 $ROUNDS); do
  order="old new"; [ $((r % 2)) = 0 ] && order="new old"
  for w in $order; do
    B=$O; [ $w = new ] && B=$N
    timeout 200 $B/bench/graphgemm_bench $A --out $OUT/g/$w$r > $OUT/g/$w$r.log 2>&1; echo "$w $r rc=$?"
  done
  python3 - $OUT/g/old$r/gemm_bf16.json $OUT/g/new$r/gemm_bf16.json <<'PY'
import json, math, sys
old = {r["name"]: r for r in json.load(open(sys.argv[1]))["rows"]}
rr = []
for r in json.load(open(sys.argv[2]))["rows"]:
    o = old[r["name"]]["us"]; u = r["us"]
    ro, rn = o["cublaslt"] / o["sm90"], u["cublaslt"] / u["sm90"]
    if r["name"] != "deepseek_v3.c": rr.append(rn / ro)
    print(f"{r['name']:18s} {r['M']}x{r['N']}x{r['K']:<6} old: lt {o['cublaslt']:7.2f} ours {o['sm90']:7.2f} ({ro:.3f})  new: lt {u['cublaslt']:7.2f} ours {u['sm90']:7.2f} ({rn:.3f})")
print(f"unmoved shapes: geomean ratio new / old {math.exp(sum(map(math.log, rr)) / len(rr)):.4f}")
PY
done
cd $OUT && tar czf g.tgz g && rm -rf g
