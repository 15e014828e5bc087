#!/usr/bin/env bash
# Session 34, call 9: correctness of the epilogue switched once per block: the GPU tests and
# sm90_gemm_check (every instance against an fp64 reference, NaN-poisoned D, writes outside M x N),
# and compute-sanitizer memcheck / racecheck on the epilogue tests.
set -uo pipefail
B=build-probe/s34h
find $B -name '*.gz' -exec gunzip -f {} +; chmod +x $B/tests/* $B/tools/*
o=$OUT/call9; mkdir -p $o
timeout 300 $B/tests/graphgemm_gpu_tests > $o/gtest.log 2>&1; echo "gpu tests rc=$?"; grep -E "PASSED|FAILED" $o/gtest.log | head -5
timeout 200 $B/tools/sm90_gemm_check > $o/check.log 2>&1; echo "check rc=$?"; tail -3 $o/check.log
F='Sm90.Epilogues:Sm90.EpilogueVectorsAtAnyAlignment:Sm90.PartialChunkTilesEveryEpilogueAndOutputType:Sm90Pingpong.Epilogues'
timeout 150 compute-sanitizer --tool memcheck $B/tests/graphgemm_gpu_tests --gtest_filter="$F" > $o/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -2 $o/memcheck.log
timeout 150 compute-sanitizer --tool racecheck $B/tests/graphgemm_gpu_tests --gtest_filter="$F" > $o/racecheck.log 2>&1; echo "racecheck rc=$?"; tail -2 $o/racecheck.log
cd $OUT && tar czf call9.tgz call9 && rm -rf call9
