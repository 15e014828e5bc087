#!/usr/bin/env bash
# Session 45, call 7: the final build (s45d: the 128x96 tile taken by its rule, kNarrow*). On the 40
# grid shapes the rule moves (shapes_narrow.json "moved") and 12 off-grid shapes ("extra": M, N, K
# between the grid's points; the rule takes 128x96 on 9 of them): automatic beside 128x96 and 128x128
# forced and cuBLASLt, two rounds; then the B N x K suites once (no suite shape moves).
set -u
B=${B:?}
[ -x $B/bench/graphgemm_bench ] || tools/unpack_prebuilt.sh $B
f=$B/bench/graphgemm_bench
D=bench/results/h100/experiments_s45
P=sm90=sm90_bf16_bf16_
S="cublaslt,sm90,${P}128x96x64_s6_c1x1_bk:none,${P}128x128x64_s6_c1x1_bk:none"
for r in 1 2; do for g in moved extra; do
  timeout 100 $f --shapes $D/shapes_narrow.json --suites $g --dtypes bf16 --no-peak --backends "$S" --out $OUT/r$r/$g > /dev/null 2>&1 || echo "r$r $g failed"
done; done
timeout 250 $f --suites square,llm,splitk --dtypes bf16 --no-peak --backends cublaslt,sm90 --out $OUT/suites > $OUT/suites.log 2>&1; echo "suites rc=$?"
python3 - $OUT <<'PY'
import json, sys, glob, math
out = sys.argv[1]
for g in ("moved", "extra"):
    for r in ("r1", "r2"):
        rows = json.load(open(f"{out}/{r}/{g}/gemm_bf16.json"))["rows"]
        print(f"== {g} {r}: shape, cuBLASLt us, cuBLASLt / automatic, / 128x96, / 128x128, automatic's tile")
        for row in rows:
            us = row["us"]; k = list(us)
            print(f"{row['M']}x{row['N']}x{row['K']}".ljust(18), f"{us['cublaslt']:7.1f}", " ".join(f"{us['cublaslt'] / us[b]:.3f}" for b in k[1:]),
                  row["config"]["sm90"].split(",")[0].replace("sm90: sm90_bf16_bf16_", ""))
PY
python3 tools/diag/suite_summary.py $OUT/suites/gemm_bf16.json
