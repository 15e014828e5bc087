#!/usr/bin/env bash
# Session 27, call 9: HEAD's GPU tests (build-probe/s27h: the gtest binary of the final commit's
# build, whose heuristic differs from call 7's build only in the 128x112 tile's efficiency), then
# compute-sanitizer memcheck on the every-instance and partial-chunk tests (both pair tiles) and
# racecheck on the every-instance test. Logs: gpu_tests.log, memcheck.log, racecheck.log.
B=build-probe/s27h/tests/graphgemm_gpu_tests; gunzip -f $B.gz; chmod +x $B; mkdir -p $OUT/g
timeout 300 $B > $OUT/g/gpu_tests.log 2>&1; echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/g/gpu_tests.log | tr '\n' ' ')"
timeout 250 compute-sanitizer --tool memcheck $B --gtest_filter='Sm90.PartialChunkTilesEveryEpilogueAndOutputType:Sm90.EveryKernelInstance' > $OUT/g/memcheck.log 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $OUT/g/memcheck.log | tr '\n' ' ')"
timeout 200 compute-sanitizer --tool racecheck $B --gtest_filter='Sm90.EveryKernelInstance' > $OUT/g/racecheck.log 2>&1
echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $OUT/g/racecheck.log | tr '\n' ' ')"
