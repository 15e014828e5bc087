#!/usr/bin/env bash
# Session 61, call B, on s61b = s61a (session 60's library with the swap-AB epilogue helper) plus the
# token tiles with B stored K x N (12 instances, chosen by name only: the token-tile rule would move 46
# of 663 broad shapes with that layout, kn_moves.txt; this call measures them before it does).
# 0. sm90_gemm_check on the 24 token-tile instances.
# 1. Every GPU test; compute-sanitizer memcheck and racecheck on the token-tile tests.
# 2. B N x K (session 60's call D, never run): 'tokmv' automatic beside the previous choices forced,
#    two rounds in reversed order; 'toksus' sustained turns (400 ms).
# 3. B K x N: 'tokkn' (the 46 would-be moves) automatic (= their previous choice) beside the token
#    tiles forced (160 and 192 tokens) and cuBLASLt, two rounds in reversed order; 'toksuskn' sustained.
#    Time / automatic of the tile kn_moves.txt names, against the share it lists: session 60's law
#    (B N x K) predicts 0.81-0.91 at shares 0.75-0.83 and 0.90-0.95 at 0.857-0.917.
# 4. 'narrow' (the narrow rule from K = 2560): automatic beside the previous choice (128x128) and
#    the other narrow tile forced, two rounds, then sustained turns. Predicted from session 60's
#    forced runs: automatic / 128x128 0.91-0.93.
# 5. ncu: the kernels cuBLASLt runs where it still leads the 160-token tile by 12-15% (576 x 8192 x
#    8192, 2304 x 1024 x 4096; both at the share law's 0.909) and at 512 x 2560 x 2560.
# PART=check runs 0-1 only, PART=time 2-5 only (each fits one 10-minute call; default: both).
set -u
B=${B:-build-probe/s61b}
PART=${PART:-all}
source tools/device_call_env.sh
D0=bench/results/h100/experiments_s60
D=bench/results/h100/experiments_s61
if [ "$PART" != time ]; then
for f in x128x64_s6_c1x1_sw_bk x128x64_s5_c1x1_sw_bk x128x64_s6_c1x1_sw_bn x128x64_s5_c1x1_sw_bn; do
  timeout 100 $B/tools/sm90_gemm_check --quick --filter=$f > $OUT/check_$f.log 2>&1; echo "check $f rc=$? $(tail -n 1 $OUT/check_$f.log)"
done
timeout 200 $T > $OUT/gtest.log 2>&1; echo "gtest rc=$?"
grep -E "^\[  (PASSED|FAILED) |FAILED|tests ran|SKIPPED \]" $OUT/gtest.log | head -12
F='Sm90.SwapABTokenTiles:Sm90.AutomaticTakesTokenTiles'
timeout 150 compute-sanitizer --tool memcheck $T --gtest_filter="$F" > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/memcheck.log | head -3
timeout 150 compute-sanitizer --tool racecheck $T --gtest_filter="$F" > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"
grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" $OUT/racecheck.log | head -3
fi
if [ "$PART" != check ]; then
K="sm90=${P}128x176x64_s5_c1x1_bk:none,sm90=${P}128x192x64_s4_c1x1_bk:none,sm90=${P}128x256x64_s4_c1x1_bk:none,sm90=${P}128x128x64_s6_c1x1_pp_bk:none,sm90=${P}128x112x64_s7_c1x1_pp_bk:none"
R=$(reverse "$K")
timeout 100 $X --shapes $D0/shapes.json --suites tokmv --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/mv_r1 > $OUT/mv_r1.log 2>&1; echo "mv r1 rc=$?"
timeout 100 $X --shapes $D0/shapes.json --suites tokmv --dtypes bf16 --no-peak --backends "$R,sm90,cublaslt" --out $OUT/mv_r2 > $OUT/mv_r2.log 2>&1; echo "mv r2 rc=$?"
python3 $S/tile_table.py $OUT/mv_r1/gemm_bf16.json $OUT/mv_r2/gemm_bf16.json > $OUT/table_tokmv.txt
Q="sm90=${P}128x176x64_s5_c1x1_bk:none,sm90=${P}128x256x64_s4_c1x1_bk:none,sm90=${P}128x128x64_s6_c1x1_pp_bk:none"
timeout 60 $X --shapes $D0/shapes.json --suites toksus --dtypes bf16 --no-peak --sustain-ms 400 --backends "cublaslt,sm90,$Q" --out $OUT/sus > $OUT/sus.log 2>&1; echo "sus rc=$?"
python3 $S/tile_table.py $OUT/sus/gemm_bf16.json $OUT/sus/gemm_bf16.json > $OUT/table_toksus.txt
KN="sm90=${P}160x128x64_s6_c1x1_sw_bn:none,sm90=${P}192x128x64_s5_c1x1_sw_bn:none"
RN=$(reverse "$KN")
timeout 120 $X --shapes $D/shapes.json --suites tokkn --dtypes bf16 --b-layout kn --no-peak --backends "cublaslt,sm90,$KN" --out $OUT/kn_r1 > $OUT/kn_r1.log 2>&1; echo "kn r1 rc=$?"
timeout 120 $X --shapes $D/shapes.json --suites tokkn --dtypes bf16 --b-layout kn --no-peak --backends "$RN,sm90,cublaslt" --out $OUT/kn_r2 > $OUT/kn_r2.log 2>&1; echo "kn r2 rc=$?"
python3 $S/tile_table.py $OUT/kn_r1/gemm_bf16_bkn.json $OUT/kn_r2/gemm_bf16_bkn.json > $OUT/table_tokkn.txt
timeout 60 $X --shapes $D/shapes.json --suites toksuskn --dtypes bf16 --b-layout kn --no-peak --sustain-ms 400 --backends "cublaslt,sm90,$KN" --out $OUT/suskn > $OUT/suskn.log 2>&1; echo "suskn rc=$?"
python3 $S/tile_table.py $OUT/suskn/gemm_bf16_bkn.json $OUT/suskn/gemm_bf16_bkn.json > $OUT/table_toksuskn.txt
NR="sm90=${P}128x128x64_s6_c1x1_bk:none,sm90=${P}128x96x64_s6_c1x1_bk:none,sm90=${P}128x80x64_s7_c1x1_bk:none"
timeout 60 $X --shapes $D/shapes.json --suites narrow --dtypes bf16 --no-peak --backends "cublaslt,sm90,$NR" --out $OUT/nr_r1 > $OUT/nr_r1.log 2>&1; echo "narrow r1 rc=$?"
timeout 60 $X --shapes $D/shapes.json --suites narrow --dtypes bf16 --no-peak --backends "$(reverse "$NR"),sm90,cublaslt" --out $OUT/nr_r2 > $OUT/nr_r2.log 2>&1; echo "narrow r2 rc=$?"
python3 $S/tile_table.py $OUT/nr_r1/gemm_bf16.json $OUT/nr_r2/gemm_bf16.json > $OUT/table_narrow.txt
timeout 60 $X --shapes $D/shapes.json --suites narrow --dtypes bf16 --no-peak --sustain-ms 400 --backends "cublaslt,sm90,$NR" --out $OUT/susnr > $OUT/susnr.log 2>&1; echo "narrow sus rc=$?"
python3 $S/tile_table.py $OUT/susnr/gemm_bf16.json $OUT/susnr/gemm_bf16.json > $OUT/table_narrow_sus.txt
(cd $OUT && tar czf logs.tgz mv_* sus sus.log kn_* suskn suskn.log nr_* susnr susnr.log && rm -rf mv_* sus sus.log kn_* suskn suskn.log nr_* susnr susnr.log)
BENCH=$X NAME_WIDTH=80 timeout 120 tools/diag/ncu_shapes.sh $OUT/ncu "576x8192x8192 cublaslt" "2304x1024x4096 cublaslt" "512x2560x2560 cublaslt" > $OUT/ncu_names.txt 2>&1; echo "ncu rc=$?"
(cd $OUT && tar czf ncu.tgz ncu && rm -rf ncu)
for t in tokmv toksus tokkn toksuskn narrow narrow_sus; do echo "== $t"; tail -n 60 $OUT/table_$t.txt; done
cat $OUT/ncu_names.txt
fi
