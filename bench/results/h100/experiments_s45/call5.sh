#!/usr/bin/env bash
# Session 45, call 5: the 128x96 tile's rule (tile_efficiency 0.65, s45c): every B N x K grid shape whose
# automatic choice it moves (shapes_moved96.json, 106 of 1586: grouped by the previous choice),
# automatic beside the previous choice forced by name and cuBLASLt, two rounds; then the B N x K
# suites once (square, llm, splitk: the committed gemm_bf16.* if kept).
set -u
B=${B:?}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
f=$B/bench/graphgemm_bench
D=bench/results/h100/experiments_s45
P=sm90=sm90_bf16_bf16_
old() { case $1 in g0) echo 128x112x64_s7_c2x1_bk:none;; g1) echo 128x128x64_s6_c1x1_bk:none;; g2) echo 128x128x64_s6_c1x1_pp_bk:none;;
  g3) echo 128x256x64_s4_c1x1_bk:none;; g4) echo 64x128x64_s8_c1x1_bk:none;; esac; }
for r in 1 2; do for g in g0 g1 g2 g3 g4; do
  timeout 100 $f --shapes $D/shapes_moved96.json --suites $g --dtypes bf16 --no-peak --backends "cublaslt,sm90,$P$(old $g)" --out $OUT/r$r/$g > /dev/null 2>&1 || echo "r$r $g failed"
done; done
timeout 250 $f --suites square,llm,splitk --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/suites > $OUT/suites.log 2>&1; echo "suites rc=$?"
python3 - $OUT <<'PY'
import json, sys, glob, math
out = sys.argv[1]
for r in ("r1", "r2"):
    ratios = []
    worst = []
    for f in sorted(glob.glob(f"{out}/{r}/g*/gemm_bf16.json")):
        for row in json.load(open(f))["rows"]:
            us = row["us"]; keys = list(us)
            new, old = us["sm90"], us[keys[2]]
            if new and old:
                ratios.append(new / old); worst.append((new / old, f"{row['M']}x{row['N']}x{row['K']}", round(us["cublaslt"] / new, 3), round(us["cublaslt"] / old, 3)))
    worst.sort()
    print(r, "rows", len(ratios), "geomean new/old time %.3f" % math.exp(sum(map(math.log, ratios)) / len(ratios)),
          "slower >2%:", sum(x > 1.02 for x in ratios), "faster >2%:", sum(x < 0.98 for x in ratios))
    print("  fastest:", worst[:4]); print("  slowest:", worst[-6:])
PY
python3 tools/diag/suite_summary.py $OUT/suites/gemm_bf16.json
cd $OUT && tar czf r.tgz r1 r2 && rm -rf r1 r2
