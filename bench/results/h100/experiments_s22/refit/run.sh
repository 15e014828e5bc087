#!/usr/bin/env bash
# Session 22: the split-model refit (64x128 workspace-split efficiency 0.55 -> 0.70, proposed
# offline) moves 101 automatic choices on a 245-shape grid off the suite and one suite choice
# (256x256x16384). Before taking it: a sample of the moved choices, old against new, both forced
# in the same (2806cc8) benchmark binary beside automatic and cuBLASLt, two rounds.
B=${B:-build-probe/s21/bench/graphgemm_bench}
[ -f $B.gz ] && gunzip -f $B.gz; chmod +x $B
B=$B OUT=$OUT bash bench/results/h100/experiments_s22/offline_common/verify_moves.sh refit bench/results/h100/experiments_s22/refit/sample.txt
