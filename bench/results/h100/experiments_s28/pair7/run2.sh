#!/usr/bin/env bash
# Session 28, call 5: the 7th stage again, with a uniform main loop. Calls 1 and 3 measured the
# 7-stage 128x112 kernels with their consumer main loop off the uniform datapath (R2UR 16 a k-block,
# 108 SASS instructions against 65: one D staging buffer made epi_buf the constant 0 and ptxas moved
# the stage / descriptors into vector registers; found in call 4's ncu, 1.6x the instructions);
# an opaque epi_buf keeps it uniform (tools/diag/sass_mainloop.py: every loop R2UR 0). Build
# build-probe/s28c: 128x112 in 7 stages as the pair (c2x1, B multicast) and as cuBLASLt has it (c1x2,
# A multicast) beside HEAD's. Checks, GPU tests, then llm M = 256 with the three forced beside
# automatic and cuBLASLt, ROUNDS rounds.
# (Call 5 ran these steps written out here; they are now forced_ab.sh's, the same steps and table.)
K=sm90_bf16_bf16_128x112x64
BUILD=${BUILD:-build-probe/s28c} CHECKS="128x112x64_s7_c2x1 128x112x64_s7_c1x2" \
  FORCED="${K}_s6_c2x1_bk ${K}_s7_c2x1_bk ${K}_s7_c1x2_bk" TAR=p2 bash "$(dirname "$0")/../forced_ab.sh"
