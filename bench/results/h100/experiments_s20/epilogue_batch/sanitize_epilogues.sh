#!/usr/bin/env bash
# memcheck and racecheck over the epilogue tests of a GPU test binary ($1), each under 300 s; logs
# $OUT/memcheck.log and $OUT/racecheck.log, one summary line each (sessions 20 and 22's epilogue A/Bs).
F='Sm90.Epilogues:Sm90.PartialChunkTilesEveryEpilogueAndOutputType:Sm90.EpilogueVectorsAtAnyAlignment:Sm90.KZeroAndEmpty:Sm90SplitK.EveryEpilogueAndOutputType'
for tool in memcheck racecheck; do
  timeout 300 compute-sanitizer --tool $tool --error-exitcode 1 $1 --gtest_filter="$F" > $OUT/$tool.log 2>&1
  echo "$tool rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $OUT/$tool.log | tr '\n' ' ')"
done
