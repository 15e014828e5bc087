#!/usr/bin/env bash
# Builds graphgemm and runs every test. GPU tests are reported as skipped where there is no CUDA device.
#   scripts/test.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
need_gtest=1 source scripts/setup.sh
build=${1:-build}
cmake -S . -B "$build" "${GRAPHGEMM_CMAKE_ARGS[@]}" -DCMAKE_BUILD_TYPE=Release -DGRAPHGEMM_BUILD_TESTS=ON >/dev/null
cmake --build "$build" --parallel "$(nproc)"
ctest --test-dir "$build" --output-on-failure
