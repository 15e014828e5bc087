#!/usr/bin/env bash
# Packs the binaries the device steps run (GPU tests, benchmark, sm90 check, demo) from a local
# build into DEST, stripped and xz-compressed (a third smaller than gzip -9: the working tree itself
# is ~37 MB of the 64 MiB that a device call carries) so that they travel to the GPU machine:
#   tools/pack_prebuilt.sh build-probe/x [build-dir]
#   (PACK_FILES="tests/graphgemm_gpu_tests bench/graphgemm_chain_sweep": only those, when all do not fit)
#   then run tools/device_run.sh there with BUILD=build-probe/x (it unpacks them: tools/unpack_prebuilt.sh).
# Each static binary holds every kernel (~15 MiB packed), so with the working tree (~45 MiB) only one
# fits a call. A build with -DBUILD_SHARED_LIBS=ON keeps the kernels in libgraphgemm.so, packed once
# beside small binaries: the GPU tests and the benchmarks then travel in one call
#   cmake -S . -B build-shared -G Ninja -DCMAKE_BUILD_TYPE=Release -DGRAPHGEMM_BUILD_TESTS=ON -DBUILD_SHARED_LIBS=ON
#   tools/pack_prebuilt.sh build-probe/x build-shared
# (there: LD_LIBRARY_PATH=$PWD/build-probe/x; tools/device_run.sh sets it when the pack has the library).
# The Python module for the GPU machine's Python (3.12): configure that build once with
# -DGRAPHGEMM_BUILD_PYTHON=ON -DPython_EXECUTABLE=<python3.12> (nanobind installed for it), build, and name
# python/graphgemm/_C.cpython-312-x86_64-linux-gnu.so in PACK_FILES (device_run.sh's python step adds
# the package's .py files there); configure back to the local Python after (only _C rebuilds).
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${1:?usage: tools/pack_prebuilt.sh DEST [build-dir]}
build=${2:-build}
rm -rf "$dest"
for f in ${PACK_FILES:-tests/graphgemm_gpu_tests bench/graphgemm_bench bench/graphgemm_graph_bench bench/graphgemm_host_bench \
         bench/graphgemm_chain_sweep tools/sm90_gemm_check examples/graphgemm_demo}; do
  [ -x "$build/$f" ] || { echo "missing $build/$f: build first (scripts/test.sh or cmake --build)" >&2; exit 1; }
  mkdir -p "$dest/$(dirname "$f")"
  strip -o "$dest/$f" "$build/$f"
  xz -9 -T0 "$dest/$f"
done
if [ -f "$build/libgraphgemm.so" ]; then  # a shared-library build: the kernels live here
  strip --strip-unneeded -o "$dest/libgraphgemm.so" "$build/libgraphgemm.so"
  xz -9 -T0 "$dest/libgraphgemm.so"
fi
size=$(du -sb "$dest" | cut -f1)
echo "$dest: $((size / 1048576)) MiB packed"
tree=$(git ls-files -z | du -cb --files0-from=- 2>/dev/null | tail -n1 | cut -f1)
[ $((size + tree)) -lt $((64 * 1048576)) ] ||
  echo "warning: with the working tree ($((tree / 1048576)) MiB) over the 64 MiB a device call carries: pack fewer (PACK_FILES)" >&2
