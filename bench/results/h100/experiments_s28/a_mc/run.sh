#!/usr/bin/env bash
# Session 28, call 3: cuBLASLt's M = 256 kernel read from its SASS (call 2) is 128x112 (our M x N)
# in clusters of two N tiles sharing the ACTIVATIONS (A) by multicast, each CTA loading its own
# 112-row weight (B) box: our "c1x2", not the pair tiles' B multicast (c2x1) that session 26 took
# it for. Experiment build build-probe/s28b: 128x112 c1x2 in 6 and 7 stages (the 7th with one D
# staging buffer per warpgroup and the barriers in the alignment pad) beside HEAD's instances.
# sm90_gemm_check on the new instances, GPU tests, then llm M = 256 with the pair tile and both
# c1x2 forced beside automatic and cuBLASLt, ROUNDS rounds.
# (Call 3 ran these steps written out here; they are now forced_ab.sh's, the same steps and table.)
K=sm90_bf16_bf16_128x112x64
BUILD=${BUILD:-build-probe/s28b} CHECKS="128x112x64_s6_c1x2 128x112x64_s7_c1x2" \
  FORCED="${K}_s6_c2x1_bk ${K}_s6_c1x2_bk ${K}_s7_c1x2_bk" TAR=p bash "$(dirname "$0")/../forced_ab.sh"
