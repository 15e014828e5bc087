#!/usr/bin/env bash
# Session 64, call A, on s64a (582cea0: 128x256 in 2x2 clusters, by name only; not yet run on a GPU):
# session 63's callC.sh with the GPU tests added and timeouts cut to one 10-minute call.
# 1. sm90_gemm_check --quick on the 6 c2x2 instances; GPU tests QuadCluster / LastNTile / EveryKernelFits;
#    pytest on the Python chain (graphgemm.Chain, record_chain / update_chain: new, never run on a GPU),
#    the torch-graph GEMM nodes and the argument errors (the pack's _C for Python 3.12).
# 2. Turns (square, llm M >= 1024): cuBLASLt, automatic, 128x256 c2x1 and c2x2 forced unsplit.
# 3. Sustained (square, 250 ms turns): cuBLASLt, c2x1, c2x2 forced unsplit.
# Prediction (session 63): sustained c2x2/c2x1 0.96-0.98 on square >= 4096; turns 0.98-1.01;
# slower where there are few cluster tiles.
set -u
B=${B:-build-probe/s64a}
source tools/device_call_env.sh
timeout 150 $B/tools/sm90_gemm_check --quick --filter=_c2x2_ > $OUT/check_c2x2.log 2>&1; echo "check c2x2 rc=$? $(tail -n 1 $OUT/check_c2x2.log)"
grep -iE "fail|error" $OUT/check_c2x2.log | head -n 5
timeout 90 $T --gtest_filter='Sm90.QuadCluster*:Sm90.LastNTile*:Sm90.EveryKernelFits*' > $OUT/gtest_c2x2.log 2>&1; echo "gtest rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $OUT/gtest_c2x2.log | tr '\n' ' ')"
mkdir -p $B/python/graphgemm && cp python/graphgemm/*.py $B/python/graphgemm/
PYTHONPATH=$PWD/$B/python timeout 120 python3 -m pytest -q -rs tests/python/test_chain.py tests/python/test_graph_torch.py \
  tests/python/test_api.py > $OUT/pytest_chain.log 2>&1; echo "pytest rc=$? $(tail -n 1 $OUT/pytest_chain.log)"
C21=sm90=${P}128x256x64_s4_c2x1_bk:none; C22=sm90=${P}128x256x64_s4_c2x2_bk:none
timeout 160 $X --dtypes bf16 --suites square,llm --min-m 1024 --backends cublaslt,sm90,$C21,$C22 --out $OUT/quad_t > $OUT/quad_t.log 2>&1
echo "quad turns rc=$?"
timeout 130 $X --dtypes bf16 --suites square --sustain-ms 250 --backends cublaslt,$C21,$C22 --out $OUT/quad_sus > $OUT/quad_sus.log 2>&1
echo "quad sustained rc=$?"
grep -E "^\[" $OUT/quad_sus.log | tail -n 3
python3 bench/results/h100/experiments_s64/quad_table.py $OUT/quad_t/gemm_bf16.json $OUT/quad_sus/gemm_bf16.json
(cd $OUT && tar czf callA.tgz quad_t quad_sus *.log && rm -rf quad_t quad_sus quad_t.log quad_sus.log)
