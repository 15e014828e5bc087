#!/usr/bin/env bash
# Builds graphgemm and runs the demo: GEMMs through the plan API, eagerly and replayed from a CUDA graph.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
build=${1:-build-demo}
cmake -S . -B "$build" "${GRAPHGEMM_CMAKE_ARGS[@]}" -DCMAKE_BUILD_TYPE=Release -DGRAPHGEMM_BUILD_TESTS=OFF \
  -DGRAPHGEMM_BUILD_BENCH=OFF -DGRAPHGEMM_BUILD_EXAMPLES=ON >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target graphgemm_demo
"$build/examples/graphgemm_demo"
