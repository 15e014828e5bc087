#!/usr/bin/env bash
# Session 37, call 1: graph_bench's tiny workflow under experiment switches (GGB_TINY_VARIANT,
# a temporary patch of bench/graph_bench.cu: see README.md). Each variant run twice.
set -u
B=build-probe/s37/bench/graphgemm_graph_bench
[ -x $B ] || gunzip -k $B.gz && chmod +x $B
mkdir -p $OUT/runs
for v in "" nowarm ours_first dummies=2 dummies=6 rerecord rerecord_free upload mid=3 after=3 norecap; do
  for r in 1 2; do
    f=$OUT/runs/$(echo "${v:-base}" | tr '=' '_')_$r.txt
    GGB_TINY_VARIANT="$v" timeout 60 $B --only tiny --out $OUT/tmp > $f 2>&1 || echo "rc=$? for $v" >> $f
  done
done
python3 - "$OUT/runs" <<'PY'
import sys, os, re
d = sys.argv[1]
def us(lines, key):
    for l in lines:
        if key in l:
            m = re.search(r'\s([\d.]+) us/it', l)
            return float(m.group(1))
    return float('nan')
print(f"{'run':22s} {'ours/own':>9s} {'comb/own':>9s} {'ours2/own':>9s} {'capt/own':>9s} {'floor':>7s}")
for f in sorted(os.listdir(d)):
    L = open(os.path.join(d, f)).read().splitlines()
    o = us(L, 'ours (graph::KernelNode)'); fl = us(L, "plain replay, no update (floor)")
    c = us(L, 'combined (raw CUDA API)'); cf = us(L, "the combined approach's graph")
    o2 = us(L, 'ours recorded again, after'); o2f = us(L, '(ours again)')
    cp = us(L, 'their nodes updated'); cpf = us(L, "that graph's plain replay ")
    print(f"{f:22s} {o/fl:9.3f} {c/cf:9.3f} {o2/o2f:9.3f} {cp/cpf:9.3f} {fl:7.3f}")
PY
