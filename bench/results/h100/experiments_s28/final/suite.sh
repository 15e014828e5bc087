#!/usr/bin/env bash
# Session 28, call 9: the suites on the committed build (build-probe/s28f: the 7-stage 128x112 pair
# tile) without the speed of light in the run, ROUNDS rounds (default 1): session 24's script.
BUILD=${BUILD:-build-probe/s28f} STEPS="${STEPS:-bench}" ROUNDS=${ROUNDS:-1} \
  bash "$(dirname "$0")/../../experiments_s24/refresh/final.sh"
