#!/usr/bin/env bash
# Session 29, issue 4: the GEMM chain (one launch, one graph node) on the GPU machine. Carry
# build-probe/s29a (tools/pack_prebuilt.sh, then keep tests/graphgemm_gpu_tests and
# bench/graphgemm_graph_bench); writes logs and the graph bench's results under $OUT.
#   PART=tests|bench|all bash bench/results/h100/experiments_s29/chain_run.sh
set -uo pipefail
B=${BUILD:-build-probe/s29b}
OUT=${OUT:-$PWD/out}
PART=${PART:-all}
find "$B" -name '*.gz' -exec gunzip -f {} + ; find "$B" -type f -exec chmod +x {} +
mkdir -p "$OUT"
summary=()
if [ "$PART" = tests ] || [ "$PART" = all ]; then
  timeout 400 "$B/tests/graphgemm_gpu_tests" >"$OUT/gpu_tests.log" 2>&1
  summary+=("gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/gpu_tests.log" | tr '\n' ' ')")
  # The chain node tests alone under memcheck.
  timeout 120 compute-sanitizer --tool memcheck "$B/tests/graphgemm_gpu_tests" \
    --gtest_filter='Captures/ChainNodeUpdates.*' >"$OUT/memcheck_chain_node.log" 2>&1
  summary+=("memcheck chain node rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck_chain_node.log" | tail -1)")
  timeout 200 compute-sanitizer --tool memcheck "$B/tests/graphgemm_gpu_tests" \
    --gtest_filter='Chains/ChainEager.*/bf16_200_264_136_72*:Captures/ChainNodeUpdates.*' >"$OUT/memcheck_chain.log" 2>&1
  summary+=("memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck_chain.log" | tail -1)")
  timeout 240 compute-sanitizer --tool racecheck "$B/tests/graphgemm_gpu_tests" \
    --gtest_filter='Chains/ChainEager.*/bf16_200_264_136_72_64X64X64_s13:Chains/ChainEager.*/bf16_200_264_136_72_128X128X64_s' >"$OUT/racecheck_chain.log" 2>&1
  summary+=("racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/racecheck_chain.log" | tail -1)")
fi
if [ "$PART" = bench ] || [ "$PART" = all ]; then
  timeout 400 "$B/bench/graphgemm_graph_bench" --out "$OUT/graph" ${GRAPH_ARGS:-} >"$OUT/graph_bench.log" 2>&1
  summary+=("graph bench rc=$?")
fi
printf '%s\n' "${summary[@]}"
grep -E "^(One chain|Goals)" "$OUT/graph/graph_bench.md" 2>/dev/null
