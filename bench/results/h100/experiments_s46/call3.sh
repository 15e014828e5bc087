#!/usr/bin/env bash
# Session 46, call 3 (s46b: the pair rule from K = 4096 with more CTAs busy, 128x112 in several waves
# where pair_waves_cost ranks it cheaper): every B N x K grid shape the rule moves (19 of 1586) and 18
# of the 50 off-grid shapes it moves of 200 (shapes_moved.json, grouped by the previous choice), the
# new automatic beside the previous choice forced with programmatic launch (as automatic launched it
# there) and cuBLASLt, two rounds; then the B N x K suites once (committed if kept).
set -u
B=${B:?}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
D=bench/results/h100/experiments_s46
P=sm90=sm90_bf16_bf16_
declare -A OLD=([g128]=128x128x64_s6_c1x1_bk [g256]=128x256x64_s4_c1x1_bk [gpp]=128x128x64_s6_c1x1_pp_bk)
for r in 1 2; do
  for g in g128 g256 gpp; do
    timeout 120 $B/bench/graphgemm_bench --shapes $D/shapes_moved.json --suites $g --dtypes bf16 --no-peak \
      --backends "cublaslt,sm90,${P}${OLD[$g]}+pdl:none" --out $OUT/r$r/$g > $OUT/r$r-$g.log 2>&1; echo "r$r $g rc=$?"
  done
done
timeout 300 $B/bench/graphgemm_bench --dtypes bf16 --backends cublaslt,sm90 --out $OUT/suites > $OUT/suites.log 2>&1; echo "suites rc=$?"
for r in 1 2; do for g in g128 g256 gpp; do echo "== r$r $g"; python3 bench/results/h100/experiments_s44/us_table.py $OUT/r$r/$g/*.json; done; done
python3 tools/diag/suite_summary.py $OUT/suites/gemm_bf16.json
cd $OUT && tar czf r.tgz r1 r2 suites && rm -rf r1 r2 suites
