#!/bin/bash
# Session 22 offline refit of the 64x128 workspace-split efficiency: reproduces every number of the report.
# Needs: /tmp/s22fit/libgraphgemm.a (copy of the library), orig/ (copy of main's sm90_heuristic.cpp),
# new/ (the patched copy), param/ (env-knob copy: S22_E128, S22_E64, S22_CL), tests_orig/ tests_new/. The
# decision dumps are tools/diag/heuristic_decisions.cpp (the same output as the decisions.cpp /
# decisions_layouts.cpp this ran with, checked in session 24).
set -e
H=/work/main/bench/results/h100/experiments_s22/offline_common  # build.sh, build_tests.sh, cells.cpp, reqs.cpp, lookup.py (one copy for the refits)
lay() { echo "$([ "$1" = n ] && echo kn || echo nk) $([ "$2" = f ] && echo fp32 || echo bf16)"; }  # B k / n-major, out b / f -> heuristic_decisions args
cd /tmp/s22fit
git -C /work/main show 328f8be:bench/results/h100/splitk/gemm_bf16.json > splitk_s14.json
cp /work/main/bench/results/h100/splitk/gemm_bf16.json splitk_s21.json
mkdir -p st c9
tar xzf /work/main/bench/results/h100/experiments_s21/split_tiles/split_tiles.tgz -C st
tar xzf /work/main/bench/results/h100/experiments_s21/split_tiles/call9_logs.tgz -C c9
python3 extract.py                                   # -> cells.tsv (880 measured cells)
python3 - <<'PY'                                      # -> shapes.txt (the 111 suite shapes of bench/shapes.json)
import json
d = json.load(open('/work/main/bench/shapes.json'))
s = [tuple(x) for x in d['square']] + [(m, n, k) for (n, k) in d['llm']['NK'].values() for m in d['llm']['M']] + [tuple(x) for x in d['splitk']]
open('shapes.txt', 'w').write(''.join('%d %d %d\n' % x for x in s))
PY
for v in orig new param; do
  $H/build.sh $v $H/cells.cpp cells_$v 2>&1 | grep "definition of"   # shows the definitions come from the copy, not the archive
  $H/build.sh $v /work/main/tools/diag/heuristic_decisions.cpp dec_$v > /dev/null 2>&1
done
$H/build.sh orig $H/reqs.cpp reqs_orig > /dev/null 2>&1; $H/build.sh new $H/reqs.cpp reqs_new > /dev/null 2>&1
$H/build.sh orig pdl_probe.cpp pdl_orig > /dev/null 2>&1; $H/build.sh new pdl_probe.cpp pdl_new > /dev/null 2>&1
./cells_orig < cells.tsv > pred_orig.tsv; ./cells_new < cells.tsv > pred_new.tsv
python3 compare.py pred_orig.tsv pred_new.tsv changed  # cells whose estimate moves
python3 compare.py pred_orig.tsv pred_new.tsv cluster  # cluster-sum cells of 64x128 / 64x64 (unchanged)
python3 fit.py 0.55 0.70 0.85                          # RMS log error per cell group (param build)
./dec_orig < shapes.txt > dec_orig.txt; ./dec_new < shapes.txt > dec_new.txt
echo "== suite decisions that change"; diff dec_orig.txt dec_new.txt || true
echo "== window"; for e in 0.62 0.63 0.70 0.74 0.75 0.85; do echo "E128=$e: $(S22_E128=$e ./dec_param < shapes.txt | diff dec_orig.txt - | grep -c '^>') lines"; done
echo "== explicit table requests"; ./reqs_orig > r0.txt; ./reqs_new > r1.txt; diff r0.txt r1.txt || true
echo "== programmatic off vs automatic"; ./pdl_orig < shapes.txt; ./pdl_new < shapes.txt
for a in "n b" "k f" "n f"; do set -- $a; echo "== layout $1 out $2"; diff <(./dec_orig $(lay $1 $2) < shapes.txt) <(./dec_new $(lay $1 $2) < shapes.txt) | grep '^>' || true; done
$H/build_tests.sh new tests_new cpu_tests_new > /dev/null 2>&1 && ./cpu_tests_new | tail -3
$H/build_tests.sh orig tests_orig cpu_tests_orig > /dev/null 2>&1 && ./cpu_tests_orig | tail -3
