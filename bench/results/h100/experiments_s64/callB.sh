#!/usr/bin/env bash
# Session 64, call B, on s64a (the pack's _C for Python 3.12; the torch operators are not in it):
# 1. every Python test (test_torch.py skips: no _torch_ops in the pack);
# 2. bench/torch_graph_mlp.py: the 4-layer MLP with a changing batch in torch CUDA graphs, torch's
#    own ways (eager, a graph a power-of-2 bucket, recapture every step) beside graphgemm's GEMM
#    nodes and chain node updated in place, pipelined and synchronized; results committed as
#    bench/results/h100/torch_graph_mlp.{json,md}.
# Prediction: synchronized, the chain node 1.2-1.5x faster than torch buckets at hidden 512 / 1024
# (the buckets pay a copy of x and replay up to 2x the rows; ours pays ~1-2 µs of node update
# from Python), ~1.0-1.1x at 4096 (GPU-bound); torch recapture > 1 ms a step (torch.cuda.graph
# synchronizes and collects garbage on entry); pipelined, the chain 0.9-1.0x its floor.
set -u
B=${B:-build-probe/s64a}
source tools/device_call_env.sh
mkdir -p $B/python/graphgemm && cp python/graphgemm/*.py $B/python/graphgemm/
export PYTHONPATH=$PWD/$B/python
timeout 150 python3 -m pytest -q -rs tests/python > $OUT/pytest.log 2>&1; echo "pytest rc=$? $(tail -n 1 $OUT/pytest.log)"
grep -E "FAILED|Error" $OUT/pytest.log | head -n 10
timeout 300 python3 bench/torch_graph_mlp.py --out $OUT/torch_mlp > $OUT/torch_mlp.log 2>&1; echo "torch_graph_mlp rc=$?"
tail -n 40 $OUT/torch_mlp.log
