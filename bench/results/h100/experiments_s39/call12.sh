#!/usr/bin/env bash
# Session 39, call 12: after the second review mend (common_params for every launcher, kernel_args
# returning its count everywhere): every GPU test and sm90_gemm_check --quick on every instance.
set -u
B=build-probe/s39v
for f in tests/graphgemm_gpu_tests tools/sm90_gemm_check; do gunzip -f $B/$f.gz; chmod +x $B/$f; done
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 200 $B/tests/graphgemm_gpu_tests > $OUT/gpu_tests.txt 2>&1; echo "gpu tests rc=$?"; tail -4 $OUT/gpu_tests.txt
timeout 300 $B/tools/sm90_gemm_check --quick > $OUT/check.txt 2>&1; echo "check rc=$?"
awk '$3 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ {n++; f+=$3} END {print n " instances, " f " failures"}' $OUT/check.txt
grep FAIL $OUT/check.txt | head -5
