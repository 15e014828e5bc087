#!/usr/bin/env bash
# Session 25, call 1: the producers of clustered kernels wait for an empty stage at CTA scope
# (build-probe/s25a) instead of acquire.cluster, which ptxas followed with a CCTL.IVALL (L1
# invalidation) per k-block (build-probe/s24o = 7f3dbc3's bench; non-cluster kernels' SASS is
# identical). sm90_gemm_check of the new build (every instance), then square + llm M >= 1024 and llm
# M = 128 / 256 with the clustered kernels forced beside their unclustered twins, the two benches
# alternating, ROUNDS rounds.
N=${N:-build-probe/s25a}; O=${O:-build-probe/s24o}; ROUNDS=${ROUNDS:-2}
for f in $N/bench/graphgemm_bench $N/tools/sm90_gemm_check $O/bench/graphgemm_bench; do
  [ -f $f.gz ] && gunzip -f $f.gz; chmod +x $f; done
mkdir -p $OUT/ab
timeout 300 $N/tools/sm90_gemm_check > $OUT/ab/check.log 2>&1; echo "check rc=$? $(tail -n 1 $OUT/ab/check.log)"
K=sm90_bf16_bf16
BIG="cublaslt,sm90,sm90=${K}_128x256x64_s4_c2x1_bk:none,sm90=${K}_128x256x64_s4_c1x1_bk:none"
BIG="$BIG,sm90=${K}_128x128x64_s6_c2x1_pp_bk:none,sm90=${K}_128x128x64_s6_c1x1_pp_bk:none"
BIG="$BIG,sm90=${K}_128x128x64_s6_c1x2_bk:none,sm90=${K}_128x128x64_s6_c1x1_bk:none"
for r in $(seq 1 $ROUNDS); do
  for v in new old; do
    X=$N; [ $v = old ] && X=$O
    timeout 200 $X/bench/graphgemm_bench --suites square,llm --min-m 1024 --dtypes bf16 --no-peak \
      --backends $BIG --out $OUT/ab/big_${v}_r$r > $OUT/ab/big_${v}_r$r.log 2>&1
    echo "round $r $v big rc=$?"
    timeout 100 $X/bench/graphgemm_bench --suites llm --min-m 128 --max-m 256 --dtypes bf16 --no-peak \
      --backends $BIG --out $OUT/ab/small_${v}_r$r > $OUT/ab/small_${v}_r$r.log 2>&1
    echo "round $r $v small rc=$?"
  done
done
cd $OUT && tar czf ab.tgz ab && rm -rf ab
