#!/usr/bin/env bash
# Session 25, call 6: HEAD's build (build-probe/s25c: the clustered producers' CTA-scope wait) — GPU
# tests, sm90_gemm_check and the suites without the speed of light in the run, ROUNDS rounds:
# session 24's script (experiments_s24/refresh/final.sh) with the test and check steps added.
BUILD=${BUILD:-build-probe/s25c} STEPS="test check bench" ROUNDS=${ROUNDS:-2} \
  bash "$(dirname "$0")/../../experiments_s24/refresh/final.sh"
