#!/usr/bin/env bash
# Session 55, call 4 (s55t: B's last N tile loaded in bounds, edge_box_row; GPU tests): every GPU
# test, then memcheck and racecheck on the edge-tile tests (the new last-N-tile test's shifted B reads
# past the stage).
set -u
T=${T:-build-probe/s55t}
tools/unpack_prebuilt.sh $T
nvidia-smi --query-gpu=name --format=csv,noheader
G=$T/tests/graphgemm_gpu_tests
timeout 330 $G > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|tests ran|LastNTile" $OUT/gtest.log | tail -12
timeout 120 compute-sanitizer --tool memcheck $G --gtest_filter='Sm90.Last*TileMatchesAFullTileBitwise' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
tail -3 $OUT/memcheck.log
timeout 120 compute-sanitizer --tool racecheck $G --gtest_filter='Sm90.LastNTileMatchesAFullTileBitwise' > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"
tail -3 $OUT/racecheck.log
