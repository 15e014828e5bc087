#!/usr/bin/env bash
# Session 14: split sweep over the llm M <= 256 shapes furthest from their floor (main b8ce75b binary).
set -u
d=build-probe/s14a
find $d -name '*.gz' -exec gunzip -f {} +; chmod +x $d/bench/*
b=$d/bench/graphgemm_bench
S=bench/results/h100/experiments_s14/split_sweep/shapes.json
k=sm90=sm90_bf16_bf16
$b --shapes $S --suites worst --dtypes bf16 --no-peak --out $OUT/a --backends cublaslt,sm90,sm90:none,sm90:parallel:2:c1,sm90:parallel:3:c1,sm90:parallel:4:c1,sm90:parallel:6:c1,sm90:parallel:8:c1,sm90+pdl:parallel:2:c1,sm90+pdl:parallel:4:c1 > $OUT/a.log 2>&1 || echo "a failed"
$b --shapes $S --suites worst --dtypes bf16 --no-peak --out $OUT/b --backends cublaslt,sm90,sm90:parallel:2:c2,sm90:parallel:4:c4,sm90:streamk,sm90:serial:4,${k}_128x176x64_s5_c1x1:parallel:5:c1,${k}_128x128x64_s6_c1x1:parallel:4:c1,${k}_64x128x64_s8_c1x1:parallel:2:c1,${k}_128x256x64_s4_c1x1:parallel:4:c1 > $OUT/b.log 2>&1 || echo "b failed"
tail -3 $OUT/a.log $OUT/b.log
