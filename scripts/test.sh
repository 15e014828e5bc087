#!/usr/bin/env bash
# Builds graphgemm and runs every test: the C++ suites (ctest) and the Python suite (pytest).
# GPU tests are reported as skipped where there is no CUDA device.
#   scripts/test.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
need_gtest=1 need_python=1 source scripts/setup.sh
build=${1:-build}
python_opt=OFF
python3 -c "import nanobind" 2>/dev/null && python_opt=ON
cmake -S . -B "$build" "${GRAPHGEMM_CMAKE_ARGS[@]}" -DCMAKE_BUILD_TYPE=Release -DGRAPHGEMM_BUILD_TESTS=ON \
  -DGRAPHGEMM_BUILD_PYTHON=$python_opt -DPython_EXECUTABLE="$(command -v python3)" >/dev/null
cmake --build "$build" --parallel "$(nproc)"
status=0
ctest --test-dir "$build" --output-on-failure || status=1
if [ "$python_opt" = ON ]; then
  PYTHONPATH="$PWD/$build/python${PYTHONPATH:+:$PYTHONPATH}" python3 -m pytest -q -rs tests/python || status=1
else
  echo "Python tests not run: nanobind is missing (pip install nanobind)"; status=1
fi
exit $status
