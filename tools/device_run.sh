#!/usr/bin/env bash
# Runs on the GPU machine: builds everything, runs the GPU tests, the sm90 kernel check and the
# benchmark, leaves results and logs under $OUT, and prints a short summary last.
#
#   STEPS="build test check graph bench profile" BENCH_ARGS="--backends cublaslt" tools/device_run.sh
#   (graph: graphgemm_graph_bench into results/<device>/graph_bench.{json,md}; GRAPH_BENCH_ARGS passes options;
#    sol: the memory speed of light beside cuBLASLt and ours on splitk and llm M <= 256, results/<device>/sol/;
#    chain: GEMM chains M by M against their layers as plans, results/<device>/chain_sweep/, CHAIN_SWEEP_ARGS;
#    python: pytest, the Python overhead, the torch-graph MLP (bench/torch_graph_mlp.py), the host bench)
# Suite figures: leave `sol` out of BENCH_ARGS' backends. With it beside them in the bench step,
# cuBLASLt ran the splitk shapes 4-6% slower (ours unmoved; H100, session 24,
# bench/results/h100/experiments_s24/benchcfg/); the sol step's own run did not show it.
#
# $OUT gets summary.txt and results.tar.gz (logs/, results/<device>/gemm_*.{json,md,png}).
# GoogleTest: the GPU machine has no package manager; carry a source tree as .deps/googletest.
#
# Prebuilt binaries (no device build, which costs ~100-150 s of device time): build here, then
#   tools/pack_prebuilt.sh build-probe/x   (xz-compressed test, bench and check binaries, < 64 MiB)
# carry build-probe, and run with BUILD=build-probe/x and no "build" step; the binaries are
# unpacked in place, the GPU tests run from the gtest binary directly (no ctest tree there).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
STEPS=${STEPS:-"build test check graph bench"}
BENCH_ARGS=${BENCH_ARGS:-}
work=$(mktemp -d)
mkdir -p "$work/logs" "$OUT"
summary="$work/summary.txt"
: >"$summary"
say() { echo "$*" | tee -a "$summary"; }
step() {  # step NAME CMD...: runs CMD, logs to logs/NAME.log, records pass/fail and time
  local name=$1; shift
  local t0=$SECONDS
  "$@" >"$work/logs/$name.log" 2>&1
  local rc=$?
  say "$(printf '%-22s %-6s %4ds  %s' "$name" "$([ $rc = 0 ] && echo ok || echo FAIL:$rc)" $((SECONDS - t0)) "$(tail -n 1 "$work/logs/$name.log" | cut -c1-90)")"
  return $rc
}

nvidia-smi >"$work/logs/nvidia-smi.txt" 2>&1
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
case "$(echo "$gpu" | tr 'A-Z' 'a-z')" in
  *h100*) device=h100 ;; *h200*) device=h200 ;; *) device=$(echo "${gpu:-unknown}" | tr 'A-Z ' 'a-z_' | tr -cd 'a-z0-9_') ;;
esac
say "device: $gpu ($device); nvcc $(nvcc --version | grep -o 'release [0-9.]*'); cmake $(cmake --version | head -n1 | awk '{print $3}')"
build=${BUILD:-build-device}
if [ -d "$build" ] && find "$build" -name '*.xz' -o -name '*.gz' | grep -q .; then
  tools/unpack_prebuilt.sh "$build"
fi
# A prebuilt pack of a shared-library build (tools/pack_prebuilt.sh) carries libgraphgemm.so beside
# the binaries, whose run paths name the build machine's folder.
[ -f "$build/libgraphgemm.so" ] && export LD_LIBRARY_PATH="$PWD/$build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)

if [[ " $STEPS " == *" build "* ]]; then
  step configure cmake -S . -B $build "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DGRAPHGEMM_BUILD_TESTS=ON \
    -DGRAPHGEMM_GTEST_SOURCE_DIR="$PWD/.deps/googletest" -DGRAPHGEMM_BUILD_PYTHON=ON -DPython_EXECUTABLE="$(command -v python3)"
  step build cmake --build $build --parallel "$(nproc)"
fi
if [[ " $STEPS " == *" test "* ]]; then
  if [ -f $build/CTestTestfile.cmake ]; then
    step ctest ctest --test-dir $build --output-on-failure
  else
    step gtest timeout "${TEST_TIMEOUT:-300}" $build/tests/graphgemm_gpu_tests
  fi
  [ -x $build/examples/graphgemm_demo ] && step demo $build/examples/graphgemm_demo
fi
if [[ " $STEPS " == *" python "* ]]; then
  # A prebuilt pack carries the module alone (python/graphgemm/_C.cpython-312-*.so, see
  # tools/pack_prebuilt.sh): the package's Python files come from the working tree.
  if compgen -G "$build/python/graphgemm/_C*.so" >/dev/null && [ ! -f "$build/python/graphgemm/__init__.py" ]; then
    cp python/graphgemm/*.py "$build/python/graphgemm/"
  fi
  export PYTHONPATH="$PWD/$build/python${PYTHONPATH:+:$PYTHONPATH}"
  step pytest python3 -m pytest -q -rs tests/python
  mkdir -p "$work/results/$device"
  if python3 -c "import graphgemm.torch" 2>/dev/null; then  # (a pack has no torch operators)
    step py_overhead python3 bench/python_overhead.py --out "$work/results/$device"
  fi
  step torch_graph_mlp python3 bench/torch_graph_mlp.py --out "$work/results/$device"
  [ -x $build/bench/graphgemm_host_bench ] && step host_overhead $build/bench/graphgemm_host_bench --out "$work/results/$device"
fi
if [[ " $STEPS " == *" sanitize "* ]]; then
  # compute-sanitizer slows kernels down 10-100x: a few tests that cover every kernel path (both
  # schedules, every epilogue, split-K serial/parallel, ragged shapes), each tool under a time limit
  # (SANITIZE_TIMEOUT seconds; a timeout reports FAIL:124, never a pass).
  san_filter=${SANITIZE_FILTER:-'Sm90.Epilogues:Sm90.EpilogueVectorsAtAnyAlignment:Sm90.KZeroAndEmpty:Sm90.PartialChunkTilesEveryEpilogueAndOutputType:Sm90Pingpong.Epilogues:Sm90SplitK.EveryEpilogueAndOutputType:Sm90SplitK.ModesSlicesShapes:Sm90SplitK.StreamKShapesTilesAndEpilogues:Sm90SplitK.ClusterSumsEveryClusterSizeShapeAndEpilogue:Sm90SplitK.SwapABClusterSumsBitwiseAndOneGraphNode:Sm90SplitK.ChainSharingOneWorkspaceMatchesSynchronizedLaunchesBitwise:Sm90.ProgrammaticLaunchChainsMatchSerialLaunchesBitwise:PlanErrors.*:GraphGemmNodeChain.*'}
  step memcheck timeout "${SANITIZE_TIMEOUT:-420}" compute-sanitizer --tool memcheck --error-exitcode 1 \
    $build/tests/graphgemm_gpu_tests --gtest_filter="$san_filter"
  step racecheck timeout "${SANITIZE_TIMEOUT:-420}" compute-sanitizer --tool racecheck --error-exitcode 1 \
    $build/tests/graphgemm_gpu_tests --gtest_filter="$san_filter"
fi
if [[ " $STEPS " == *" check "* ]] && [ -x $build/tools/sm90_gemm_check ]; then
  step sm90_check timeout "${TEST_TIMEOUT:-300}" $build/tools/sm90_gemm_check
fi
if [[ " $STEPS " == *" profile "* ]]; then
  # ncu on one shape (the bench measures 8192^3 first for the peak, so those launches come first).
  shape=${PROFILE_SHAPE:-4096x4096x4096}
  step profile ncu --kernel-name regex:gemm --launch-count "${PROFILE_LAUNCHES:-8}" \
    --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats \
    $build/bench/graphgemm_bench --shape "$shape" --dtypes bf16 --backends cublaslt,sm90 --batches 1 --out "$work/profile"
fi
if [[ " $STEPS " == *" graph "* ]]; then
  # CUDA graphs with changing parameters (issue 4): tiny-kernel workflow and MLP workflow.
  res="$work/results/$device"
  mkdir -p "$res"
  step graph_bench $build/bench/graphgemm_graph_bench --out "$res" ${GRAPH_BENCH_ARGS:-}
  step graph_json python3 -c "import json, sys; json.load(open(sys.argv[1])); print('graph_bench.json parses')" "$res/graph_bench.json"
  [ -f "$res/graph_bench.md" ] && grep -E "^Goals" "$res/graph_bench.md" | tee -a "$summary"
fi
if [[ " $STEPS " == *" chain "* ]]; then
  # GEMM chains M by M (tools/diag/chain_m_sweep.cu): each chain tile against the 4 layers as
  # GemmPlans, GPU time per chain, and whether every tile's output is bit for bit the same.
  res="$work/results/$device/chain_sweep"
  mkdir -p "$res"
  for pdl in off on; do
    step chain_sweep_pdl_$pdl sh -c "$build/bench/graphgemm_chain_sweep --pdl $pdl ${CHAIN_SWEEP_ARGS:-} > $res/sweep_pdl_$pdl.txt"
  done
  grep -h "BITS DIFFER" "$res"/sweep_pdl_*.txt | head -3 | tee -a "$summary"
fi
if [[ " $STEPS " == *" splitk "* ]]; then
  # The split-K table: every shape of the splitk suite against slices and mode, beside cuBLASLt.
  mkdir -p "$work/results/$device/splitk"
  # parallel:S:c1 through the workspace only; parallel:S:cC summed in clusters of C first (S = C:
  # wholly within one cluster per tile, no workspace).
  modes=cublaslt,sm90:none,sm90
  for s in 2 4 8 16 auto; do modes+=",sm90:serial:$s"; done
  for s in 2 4 8 16 32 64 auto; do modes+=",sm90:parallel:$s:c1"; done
  for s in 2 4 8; do modes+=",sm90:parallel:$s:c$s"; done
  for s in 16 32 auto; do modes+=",sm90:parallel:$s:c8"; done
  step splitk $build/bench/graphgemm_bench --shapes bench/shapes.json --suites splitk --dtypes bf16 \
    --backends "$modes" --out "$work/results/$device/splitk"
fi
if [[ " $STEPS " == *" sol "* ]]; then
  # The memory speed of light beside cuBLASLt and ours (bench/speed_of_light.hpp): the
  # bandwidth-bound suites, every sol variant; tools/diag/sol_table.py prints the comparison.
  mkdir -p "$work/results/$device/sol"
  sol_backends=${SOL_BACKENDS:-cublaslt,sm90,sol,sol+pdl,sol=loads/8,sol=bulk,sol+pdl+prefetch,sol=loads/8+pdl+prefetch,sol=bulk+pdl+prefetch}
  step sol $build/bench/graphgemm_bench --shapes bench/shapes.json --suites splitk,llm --max-m 256 --dtypes bf16 \
    --no-peak --backends "$sol_backends" --out "$work/results/$device/sol"
  python3 tools/diag/sol_table.py "$work/results/$device/sol/gemm_bf16.json" | tail -n 2 | tee -a "$summary"
fi
if [[ " $STEPS " == *" bench "* ]]; then
  res="$work/results/$device"
  mkdir -p "$res"
  step bench timeout "${BENCH_TIMEOUT:-400}" $build/bench/graphgemm_bench --shapes bench/shapes.json --out "$res" $BENCH_ARGS
  step plot python3 bench/plot.py "$res"
  for f in "$res"/gemm_*.md; do [ -f "$f" ] && head -n 4 "$f" | tail -n 1 | tee -a "$summary"; done
fi

cp "$summary" "$OUT/summary.txt"
tar -C "$work" -czf "$OUT/results.tar.gz" logs $( [ -d "$work/results" ] && echo results )
echo "---- summary ----"
cat "$summary"
