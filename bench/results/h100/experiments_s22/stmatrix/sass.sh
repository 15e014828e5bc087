#!/usr/bin/env bash
# Session 22: SASS and resource usage of the 64x64 / 64x128 cooperative kernels (full, with the
# split-K paths) in the old (2806cc8) and new (stmatrix) benchmark binaries, to see what changed
# in kernels whose split launches never run store_block.
NEW=build-probe/s22new OLD=build-probe/s21
find $NEW $OLD -name '*.gz' -exec gunzip -f {} +
for v in old new; do
  B=$OLD/bench/graphgemm_bench; [ $v = new ] && B=$NEW/bench/graphgemm_bench
  cuobjdump -res-usage $B > $OUT/res_$v.txt 2>&1
  for f in $(cuobjdump -sass $B 2>/dev/null | grep -o 'Function : [^ ]*GemmConfigI13__nv_bfloat16S5_Li64ELi\(64ELi13\|128ELi8\)ELi1ELi1ELb1EEEEEv[^ ]*' | awk '{print $3}' | sort -u); do
    cuobjdump -sass -fun $f $B > $OUT/sass_${v}_$(echo $f | grep -o 'Li64ELi[0-9]*' ).txt 2>&1
  done
done
ls -la $OUT
