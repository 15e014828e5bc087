#!/usr/bin/env bash
# Session 63, call B, on s63b (the bench of 4769862 with sol=math's first stage loaded in one round
# trip: call A's sol=math issued its 12 loads a thread one after the other, a few µs per launch):
# 1. sol=math beside cuBLASLt and automatic in turns (square, llm M >= 1024; two rounds, backends in
#    opposite orders) and sustained (square, 400 ms turns).
# 2. ncu at base clocks (cycles comparable), caches flushed: cycles and tensor-pipe activity of each
#    backend on 2048^3 .. 16384^3.
set -u
B=${B:-build-probe/s63b}
source tools/device_call_env.sh
BK=cublaslt,sm90,sol=math
for r in 1 2; do
  timeout 120 $X --dtypes bf16 --suites square,llm --min-m 1024 --backends $BK --out $OUT/sol_t$r > $OUT/sol_t$r.log 2>&1
  echo "sol turns round $r rc=$?"; python3 tools/diag/sol_table.py $OUT/sol_t$r/gemm_bf16.json | tail -n 2
  BK=$(reverse $BK)
done
timeout 150 $X --dtypes bf16 --suites square --sustain-ms 400 --backends cublaslt,sm90,sol=math --out $OUT/sol_sus > $OUT/sol_sus.log 2>&1
echo "sol sustained rc=$?"; python3 tools/diag/sol_table.py $OUT/sol_sus/gemm_bf16.json
python3 tools/diag/sol_table.py $OUT/sol_t1/gemm_bf16.json | head -n 8
pairs=()
for s in 2048x2048x2048 4096x4096x4096 8192x8192x8192 16384x16384x16384; do
  for b in cublaslt sm90 sol=math; do pairs+=("$s $b"); done
done
CLOCK_CONTROL=base BENCH=$X NAME_WIDTH=36 EXTRA_METRICS=gpc__cycles_elapsed.max,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active \
  timeout 300 tools/diag/ncu_shapes.sh $OUT/ncu "${pairs[@]}" 2>&1 | tee $OUT/ncu_table.txt
(cd $OUT && tar czf callB.tgz sol_t1 sol_t2 sol_sus ncu *.log && rm -rf sol_t1 sol_t2 sol_sus ncu *.log)
