#!/usr/bin/env bash
# Packs the binaries the device steps run (GPU tests, benchmark, sm90 check, demo) from a local
# build into DEST, gzipped so that they travel as a carried path (64 MiB limit) to the GPU machine:
#   tools/pack_prebuilt.sh build-probe/x [build-dir]
#   (PACK_FILES="tests/graphgemm_gpu_tests bench/graphgemm_chain_sweep": only those, when all do not fit)
#   then run tools/device_run.sh there with BUILD=build-probe/x (it unpacks them).
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
  gzip -9 "$dest/$f"
done
size=$(du -sb "$dest" | cut -f1)
echo "$dest: $((size / 1048576)) MiB packed"
[ "$size" -lt $((60 * 1048576)) ] || echo "warning: over 60 MiB; the carry limit is 64 MiB in all" >&2
