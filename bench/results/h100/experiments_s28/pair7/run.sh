#!/usr/bin/env bash
# Session 28, call 1: the pair tile 128x112 in 2x1 clusters with a 7th stage (cuBLASLt's own M = 256
# configuration: nvjet 112x128_64x7_2x1, 231.7 KB of shared memory against our 218.2 KB in 6 stages;
# session 27's ncu: our consumers starve with DRAM at 72% of peak against its 79%). The 7th stage fits
# with one D staging buffer per consumer warpgroup and the mbarriers in the base's alignment pad
# (SmemCarve). Experiment build build-probe/s28a (the s7 instances beside the s6 ones; automatic
# unchanged). sm90_gemm_check on both 128x112 pair families, the GPU tests, then llm M = 256 with the
# two forced beside automatic and cuBLASLt, ROUNDS rounds.
# (Call 1 ran these steps written out here; they are now forced_ab.sh's, the same steps and table.)
K=sm90_bf16_bf16_128x112x64
BUILD=${BUILD:-build-probe/s28a} CHECKS="128x112x64_s7_c2x1 128x112x64_s6_c2x1 128x256x64_s4_c1x1_bk" \
  FORCED="${K}_s6_c2x1_bk ${K}_s7_c2x1_bk" TAR=p bash "$(dirname "$0")/../forced_ab.sh"
