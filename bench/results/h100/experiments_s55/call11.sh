#!/usr/bin/env bash
# Session 55, call 11 (s55p = s55c + probe tiles 128x144 s5 and 128x80 s7, B N x K, bf16, by name
# only: probe_tiles.patch): shapes.json 'narrow' and 'grid', both probe tiles forced beside
# automatic and cuBLASLt, two rounds with the order reversed.
set -u
B=${B:-build-probe/s55p}
tools/unpack_prebuilt.sh $B
nvidia-smi --query-gpu=name --format=csv,noheader
D=bench/results/h100/experiments_s55
X=$B/bench/graphgemm_bench
P=sm90=sm90_bf16_bf16_
K="${P}128x144x64_s5_c1x1_bk:none,${P}128x80x64_s7_c1x1_bk:none"
R=$(echo "$K" | tr ',' '\n' | tac | paste -sd,)
for s in narrow grid; do
  timeout 200 $X --shapes $D/shapes.json --suites $s --dtypes bf16 --no-peak --backends "cublaslt,sm90,$K" --out $OUT/${s}_r1 > $OUT/${s}_r1.log 2>&1; echo "$s r1 rc=$?"
  timeout 200 $X --shapes $D/shapes.json --suites $s --dtypes bf16 --no-peak --backends "$R,sm90,cublaslt" --out $OUT/${s}_r2 > $OUT/${s}_r2.log 2>&1; echo "$s r2 rc=$?"
done
python3 $D/tile_table.py $OUT/narrow_r1/gemm_bf16.json $OUT/narrow_r2/gemm_bf16.json
python3 $D/tile_table.py $OUT/grid_r1/gemm_bf16.json $OUT/grid_r2/gemm_bf16.json > $OUT/grid_table.txt
python3 - $OUT/grid_table.txt <<'PY'
import sys
rows=[l for l in open(sys.argv[1]) if l[:4] not in ('row ', 'geom')]
best=[]
for l in rows:
    p=l.split()
    cells=[c for c in p if '/' in c]
    if len(cells)<3: continue
    r=[tuple(map(float,c.split('/'))) for c in cells[1:]]
    b=min(r,key=max)
    if max(b)<0.97: best.append((max(b),l.strip()[:140]))
for b,l in sorted(best): print(l)
print(len(best),'grid rows where a probe tile beats automatic by > 3% in both rounds')
PY
tail -1 $OUT/grid_table.txt
cd $OUT && tar czf call11.tgz narrow_r* grid_r* grid_table.txt && rm -rf narrow_r* grid_r*
