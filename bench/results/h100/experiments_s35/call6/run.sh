#!/usr/bin/env bash
# Session 35, call 6: correctness of the deferred epilogue's third form (s35e = s35d's kernels):
# the GPU tests and sm90_gemm_check (every instance against an fp64 reference, NaN-poisoned D,
# writes outside M x N, few CTAs walking many tiles), compute-sanitizer memcheck and racecheck.
set -uo pipefail
B=build-probe/s35e
find $B -name '*.gz' -exec gunzip -f {} +; chmod +x $B/tests/* $B/tools/*
o=$OUT/call6; mkdir -p $o
timeout 240 $B/tests/graphgemm_gpu_tests > $o/gtest.log 2>&1; echo "gpu tests rc=$?"; grep -E "PASSED|FAILED" $o/gtest.log | head -5
timeout 150 $B/tools/sm90_gemm_check > $o/check.log 2>&1; echo "check rc=$?"; tail -2 $o/check.log
F='Sm90.Epilogues:Sm90.EpilogueVectorsAtAnyAlignment:Sm90SplitK.StreamKShapesTilesAndEpilogues:Sm90Pingpong.Epilogues:Sm90.LastMTileMatchesAFullTileBitwise'
timeout 80 compute-sanitizer --tool memcheck $B/tests/graphgemm_gpu_tests --gtest_filter="$F" > $o/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -2 $o/memcheck.log
timeout 100 compute-sanitizer --tool racecheck $B/tests/graphgemm_gpu_tests --gtest_filter="$F" > $o/racecheck.log 2>&1; echo "racecheck rc=$?"; tail -2 $o/racecheck.log
cd $OUT && tar czf call6.tgz call6 && rm -rf call6
