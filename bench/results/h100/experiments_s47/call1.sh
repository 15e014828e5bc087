#!/usr/bin/env bash
# Session 47, call 1 (s47a: HEAD + a one-tile 64x96 chain instance): GPU time per chain of 4 layers,
# M by M, the 64x96 tile (10 stages) beside 64x128 and automatic, hidden 2048 / 3072 / 4096, PDL off
# and on (tools/diag/chain_m_sweep.cu; 20 chains a graph, the median of 5 replays).
set -u
B=${B:?}
[ -x $B/bench/graphgemm_chain_sweep ] || tools/unpack_prebuilt.sh $B
T=sm90_bf16_bf16_64x128x64_s8_c1x1_bk,sm90_bf16_bf16_64x96x64_s10_c1x1_bk,auto
for pdl in off on; do
  timeout 250 $B/bench/graphgemm_chain_sweep --pdl $pdl --hidden 4096,3072,2048 --m 1,64,128,129,144,160,176,192,208,224,256 \
    --tiles $T > $OUT/sweep_pdl_$pdl.txt 2>&1; echo "pdl $pdl rc=$?"
done
tail -n 40 $OUT/sweep_pdl_off.txt
