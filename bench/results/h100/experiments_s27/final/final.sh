#!/usr/bin/env bash
# Session 27, call 8: the suites on the final build (build-probe/s27b: the pair tiles; its GPU tests
# and sm90_gemm_check ran in call 7, experiments_s27/pair_tiles/run.sh) without the speed of light
# in the run, ROUNDS rounds: session 24's script (experiments_s24/refresh/final.sh).
BUILD=${BUILD:-build-probe/s27b} STEPS="${STEPS:-bench}" ROUNDS=${ROUNDS:-2} \
  bash "$(dirname "$0")/../../experiments_s24/refresh/final.sh"
