#!/usr/bin/env bash
# Session 35, call 2: correctness of the deferred epilogue (s35a's kernels): the GPU tests and
# sm90_gemm_check (every instance against an fp64 reference, NaN-poisoned D, writes outside M x N),
# and compute-sanitizer memcheck / racecheck on the epilogue tests.
set -uo pipefail
B=build-probe/s35t
find $B -name '*.gz' -exec gunzip -f {} +; chmod +x $B/tests/* $B/tools/*
o=$OUT/call2; mkdir -p $o
timeout 300 $B/tests/graphgemm_gpu_tests > $o/gtest.log 2>&1; echo "gpu tests rc=$?"; grep -E "PASSED|FAILED" $o/gtest.log | head -5
timeout 200 $B/tools/sm90_gemm_check > $o/check.log 2>&1; echo "check rc=$?"; tail -3 $o/check.log
F='Sm90.ShapeSweep:Sm90.LastMTileMatchesAFullTileBitwise:Sm90SplitK.StreamKShapesTilesAndEpilogues:Sm90.Epilogues:Sm90.EpilogueVectorsAtAnyAlignment:Sm90.PartialChunkTilesEveryEpilogueAndOutputType:Sm90Pingpong.Epilogues'
timeout 150 compute-sanitizer --tool memcheck $B/tests/graphgemm_gpu_tests --gtest_filter="$F" > $o/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -2 $o/memcheck.log
timeout 150 compute-sanitizer --tool racecheck $B/tests/graphgemm_gpu_tests --gtest_filter="$F" > $o/racecheck.log 2>&1; echo "racecheck rc=$?"; tail -2 $o/racecheck.log
cd $OUT && tar czf call2.tgz call2 && rm -rf call2
