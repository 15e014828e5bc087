#!/usr/bin/env bash
# Session 34, call 1 (issue 3): consumer warpgroup stagger in the cooperative kernels (experiment
# build: GemmOptions::sm90_consumer_stagger, bench suffix +stgC = warpgroup 1 starts C SM cycles
# after the first stage landed). One binary, side by side: cuBLASLt, automatic, automatic +stg512,
# +stg1024, +stg1536, +stg2048; square + llm M >= 1024 in turns, two rounds; sustained
# (--sustain-ms 500) on four multi-tile shapes; the base build (HEAD) beside it for the
# instruction cost of the experiment's prologue.
set -uo pipefail
B=build-probe/s34a
BASE=build-probe/base
find $B $BASE -name '*.gz' -exec gunzip -f {} +; chmod +x $B/bench/* $BASE/bench/*
o=$OUT/call1; mkdir -p $o
export o B BASE
BE="cublaslt,sm90,sm90+stg512,sm90+stg1024,sm90+stg1536,sm90+stg2048"
for r in 1 2; do
  t0=$SECONDS
  $B/bench/graphgemm_bench --suites square,llm --min-m 1024 --dtypes bf16 --no-peak --backends $BE --out $o/turns_$r > $o/turns_$r.log 2>&1
  echo "turns $r rc=$? $((SECONDS-t0)) s"
  t0=$SECONDS
  $BASE/bench/graphgemm_bench --suites square,llm --min-m 1024 --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $o/base_turns_$r > $o/base_turns_$r.log 2>&1
  echo "base turns $r rc=$? $((SECONDS-t0)) s"
done
for s in 4096x4096x4096 6144x6144x6144 4096x28672x4096 4096x8192x8192; do
  t0=$SECONDS
  $B/bench/graphgemm_bench --shape $s --dtypes bf16 --no-peak --backends $BE --sustain-ms 500 --out $o/sus_$s > $o/sus_$s.log 2>&1
  echo "sustained $s rc=$? $((SECONDS-t0)) s"
done
K=sm90_bf16_bf16
# The two shapes below 0.95x (1024^3, llama3_8b.o M = 1024): every plausible tile, two rounds.
for r in 1 2; do
  $B/bench/graphgemm_bench --shape 1024x1024x1024 --dtypes bf16 --no-peak --out $o/sweep1024_$r \
    --backends cublaslt,sm90,sm90+pdl,sm90=${K}_64x64x64_s13_c1x1,sm90=${K}_128x128x64_s6_c1x1,sm90=${K}_128x128x64_s6_c1x1_pp,sm90=${K}_128x128x64_s6_c1x1:parallel:2:c2,sm90=${K}_64x128x64_s8_c1x1:parallel:2 > $o/sweep1024_$r.log 2>&1
  echo "sweep1024 $r rc=$?"
  $B/bench/graphgemm_bench --shape 1024x4096x4096 --dtypes bf16 --no-peak --out $o/sweep8bo_$r \
    --backends cublaslt,sm90,sm90+stg1024,sm90=${K}_128x256x64_s4_c2x1,sm90=${K}_128x192x64_s4_c1x1,sm90=${K}_128x128x64_s6_c2x1,sm90=${K}_128x128x64_s6_c1x1_pp,sm90=${K}_64x256x64_s4_c1x1_pp,sm90=${K}_128x128x64_s6_c1x1:parallel:2:c2 > $o/sweep8bo_$r.log 2>&1
  echo "sweep8bo $r rc=$?"
done
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv > $o/smi.txt 2>&1
cd $OUT && tar czf call1.tgz call1 && rm -rf call1
