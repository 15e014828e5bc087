#!/usr/bin/env bash
# Diagnostic: where the warps of one sm90 kernel launch stall, per SASS instruction (ncu source
# page, warp-state sampling). Usage: tools/diag/ncu_source.sh OUTDIR MxNxK BACKEND [SKIP]
# Writes OUTDIR/<tag>.details.csv (all sections) and OUTDIR/<tag>.source.csv (per instruction).
# BENCH=path/to/graphgemm_bench (default build-device/bench/graphgemm_bench); KERNEL=regex of the
# kernel name to profile (default sm90_gemm; nvjet for cuBLASLt's).
set -uo pipefail
out=$1 shape=$2 backend=$3 skip=${4:-24}
tag=$(echo "${shape}_${backend}" | tr ':=' '__')
mkdir -p "$out"
ncu --set full --import-source no --clock-control none --kernel-name regex:"${KERNEL:-sm90_gemm}" --launch-skip "$skip" \
  --launch-count 1 -f -o "$out/$tag" "${BENCH:-build-device/bench/graphgemm_bench}" --shape "$shape" --backends "$backend" \
  --dtypes bf16 --batches 1 --no-peak --out "$out/bench_$tag" >"$out/$tag.log" 2>&1
ncu --import "$out/$tag.ncu-rep" --page details --csv >"$out/$tag.details.csv" 2>&1
ncu --import "$out/$tag.ncu-rep" --page source --csv --print-source sass >"$out/$tag.source.csv" 2>&1
rm -f "$out/$tag.ncu-rep"
