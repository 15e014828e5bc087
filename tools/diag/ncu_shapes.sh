#!/usr/bin/env bash
# Diagnostic: kernel durations and DRAM traffic (ncu) of one backend on one shape, several pairs.
# Usage: tools/diag/ncu_shapes.sh OUTDIR "MxNxK backend" ...   (needs build-device/ built, or BENCH=path/to/graphgemm_bench;
#        NAME_WIDTH=N prints N characters of each kernel name, default 60;
#        EXTRA_METRICS=a,b,... also collects those ncu metrics and prints each as name=value;
#        CACHE_CONTROL=none keeps the caches between profiled launches, default all: flushed;
#        CLOCK_CONTROL=base locks the clocks at base (cycles comparable across kernels), default none)
# Runs the bench with --no-peak (one backend) and profiles its eager launches after the check: the
# warm-up runs over the rotating operand sets and the 3 timing estimates (ncu does not profile the
# kernels the bench then replays in CUDA graphs: session 16, H100, "No kernels were profiled" when
# the skip went past the eager launches), 6 at most, clocks unlocked (CLOCK_CONTROL) and caches flushed; prints one
# line per profiled kernel: name, grid, µs, DRAM MB read, % of DRAM peak.
set -uo pipefail
out=$1; shift
bench=${BENCH:-build-device/bench/graphgemm_bench}
export NAME_WIDTH=${NAME_WIDTH:-60} EXTRA_METRICS=${EXTRA_METRICS:-}
mkdir -p "$out"
for pair in "$@"; do
  set -- $pair
  tag=$(echo "$1_$2" | tr ':=' '__')
  ncu --csv --print-units base --clock-control ${CLOCK_CONTROL:-none} --cache-control ${CACHE_CONTROL:-all} --kernel-name regex:'gemm|nvjet|splitK|reduce|sol_math' --launch-skip 1 --launch-count 6 \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,sm__throughput.avg.pct_of_peak_sustained_elapsed${EXTRA_METRICS:+,$EXTRA_METRICS} \
    $bench --shape "$1" --backends "$2" --dtypes bf16 --batches 1 --no-peak --out "$out/bench_$tag" >"$out/ncu_$tag.csv" 2>"$out/ncu_$tag.err"
  python3 - "$out/ncu_$tag.csv" "$1" "$2" <<'PY'
import csv, sys, collections, os
w = int(os.environ["NAME_WIDTH"])
# The CSV header is the row that starts with "ID": the bench's own lines come first, and its device
# line ("clocks (sm, max sm, ...): 1980 MHz, ...") has as many commas as a metric row.
rows = list(csv.reader(open(sys.argv[1])))
start = next((i for i, r in enumerate(rows) if r and r[0] == "ID"), None)
if start is None: print(sys.argv[2], sys.argv[3], "no ncu rows"); sys.exit()
h = rows[start]; idx = {k: h.index(k) for k in ("ID", "Kernel Name", "Metric Name", "Metric Value")}
k = collections.defaultdict(dict)
for r in rows[start + 1:]:
    if len(r) != len(h): continue
    k[(r[idx["ID"]], r[idx["Kernel Name"]][:w])][r[idx["Metric Name"]]] = r[idx["Metric Value"]]
for (i, name), m in sorted(k.items(), key=lambda x: int(x[0][0])):
    print(f'{sys.argv[2]:>14} {sys.argv[3]:<22} {name:<{w}} grid {m.get("launch__grid_size","?"):>5} '
          f'{float(m.get("gpu__time_duration.sum","0").replace(",",""))/1000:8.2f} us  dram {float(m.get("dram__bytes_read.sum","0").replace(",",""))/1e6:8.2f} MB '
          f'{m.get("dram__throughput.avg.pct_of_peak_sustained_elapsed","?"):>6}% dram  sm {m.get("sm__throughput.avg.pct_of_peak_sustained_elapsed","?")}%'
          + "".join(f' {x}={m.get(x, "?")}' for x in os.environ["EXTRA_METRICS"].split(",") if x))
PY
done
