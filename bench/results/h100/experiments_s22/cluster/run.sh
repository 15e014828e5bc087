#!/usr/bin/env bash
# Session 22, call 10: the 128x128 cluster-sum refit (a floor of 8.5 us + the busiest GPC's bytes
# at 0.97 TB/s on 8 slices in clusters of 8): each moved choice (B N x K), old and new forced in
# one binary (4fe6aba's, build-probe/s22f) beside automatic and cuBLASLt, two rounds; the last line
# (128x1024x16384) is an unchanged control.
B=${B:-build-probe/s22f/bench/graphgemm_bench}
[ -f $B.gz ] && gunzip -f $B.gz; chmod +x $B
B=$B OUT=$OUT bash bench/results/h100/experiments_s22/offline_common/verify_moves.sh cluster bench/results/h100/experiments_s22/cluster/verify.txt
cd $OUT && tar czf cluster.tgz cluster_* && rm -rf cluster_*
