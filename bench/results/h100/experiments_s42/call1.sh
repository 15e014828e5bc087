#!/usr/bin/env bash
# Session 42, call 1: the per-tile hand-over. chain_trace of HEAD 386d23a (old: the per-M-block
# hand-over) and of the new kernel, alternating, two rounds (GPU us per chain of 4 in a graph of
# 20, and where the time goes); the new graphgemm_chain_sweep (bitwise across tiles, against 4
# plans); the new chain GPU tests (ChainHandOver: NaN-poisoned workspace before every run).
set -u
C=${C:-build-probe/s42ct}
N=${N:-build-probe/s42new}
tools/unpack_prebuilt.sh $C
tools/unpack_prebuilt.sh $N
nvidia-smi --query-gpu=name --format=csv,noheader
cases=("4096 1 pair" "4096 64 pair" "4096 128 pair" "4096 256 pair" "1024 64 64x64" "512 64 64x64")
for r in 1 2; do
  for v in old new; do
    for c in "${cases[@]}"; do
      echo "== $v round $r: $c" >> $OUT/trace_$v.txt
      timeout 30 $C/tools/chain_trace_$v $c >> $OUT/trace_$v.txt 2>&1 || echo "rc=$? $v $c"
    done
  done
done
timeout 120 $N/bench/graphgemm_chain_sweep --hidden 512,1024,4096 --m 1,16,64,128,192,256 \
  --tiles auto,sm90_bf16_bf16_64x64x64_s13_c1x1_bk,sm90_bf16_bf16_64x128x64_s8_c1x1_bk > $OUT/sweep_new.txt 2>&1; echo "sweep rc=$?"
timeout 200 $N/tests/graphgemm_gpu_tests --gtest_filter='*Chain*' > $OUT/chain_tests.txt 2>&1; echo "chain tests rc=$?"
grep -E "FAILED|PASSED|differ" $OUT/chain_tests.txt | head -12
grep -c "bitwise=yes\|bitwise= " $OUT/sweep_new.txt
grep -E "^\s+[0-9]+ " $OUT/sweep_new.txt | cut -c1-72
python3 - "$OUT" <<'PY'
import re, sys, os
out = sys.argv[1]
def medians(path):
    res, case = {}, None
    for line in open(path):
        m = re.match(r'== \w+ round (\d): (.*)', line)
        if m: case = (m.group(2), int(m.group(1))); continue
        m = re.search(r'median ([\d.]+) us', line)
        if m and case and case not in res: res[case] = float(m.group(1))
    return res
o, n = medians(os.path.join(out, 'trace_old.txt')), medians(os.path.join(out, 'trace_new.txt'))
print('case            old r1  new r1  old r2  new r2  new/old')
for c in dict.fromkeys(k[0] for k in o):
    a = [o.get((c, 1)), n.get((c, 1)), o.get((c, 2)), n.get((c, 2))]
    if None in a: print(c, a); continue
    print('%-14s %7.2f %7.2f %7.2f %7.2f  %.3f' % (c, *a, (a[1] + a[3]) / (a[0] + a[2])))
PY
