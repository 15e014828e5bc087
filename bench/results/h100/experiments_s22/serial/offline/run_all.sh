#!/bin/bash
# Session 22 offline serial split-K refit: reproduces every number of the report (log: run_all.log).
# Needs /tmp/s22fit/libgraphgemm.a (library copy, kernel table unchanged), /tmp/s22fit/cells.tsv (the
# earlier helper's cells: tab21/tab14/st_*/c9_*), orig/ (copy of main's sm90_heuristic.cpp), new/ (patched),
# param/ (env-knob exploration copy), tests_cur/ (main's tests/cpu), tests_new/ (+ the new test). The decision
# dumps are tools/diag/heuristic_decisions.cpp (the same output as the decisions.cpp / decisions_layouts.cpp
# this ran with, checked in session 24).
set -e
H=/work/main/bench/results/h100/experiments_s22/offline_common  # build.sh, build_tests.sh, cells.cpp, reqs.cpp, lookup.py (one copy for the refits)
lay() { echo "$([ "$1" = n ] && echo kn || echo nk) $([ "$2" = f ] && echo fp32 || echo bf16)"; }  # B k / n-major, out b / f -> heuristic_decisions args
cd /tmp/s22serial
tar xzf /work/main/bench/results/h100/experiments_s22/split_sweep/call8_sweep.tgz
python3 extract.py                                     # -> cells.tsv (tab22, sw, suite + /tmp/s22fit/cells.tsv)
for v in orig new; do
  $H/build.sh $v $H/cells.cpp cells_$v 2>&1 | grep "definition of"   # the definitions come from the copy
  $H/build.sh $v $H/reqs.cpp reqs_$v > /dev/null 2>&1
  $H/build.sh $v /work/main/tools/diag/heuristic_decisions.cpp decisions_$v > /dev/null 2>&1
done
$H/build.sh param $H/cells.cpp cells_param > /dev/null 2>&1
./cells_orig < cells.tsv > pred_orig.tsv; ./cells_new < cells.tsv > pred_new.tsv
S22_SE128=0.70 S22_SF=0 S22_SS=0 ./cells_param < cells.tsv > pred_u.tsv   # unit times only (serial terms zeroed)
python3 implied.py > implied.txt                       # implied serial overhead per cell (vs the same-units parallel cell)
python3 serial_table.py > serial_cells.md              # serial cells measured vs estimate before / after
python3 ratio.py pred_new.tsv > ratio_new.txt          # serial-2 cells against the unsplit choice, by grid occupancy
for v in orig new; do
  ./decisions_$v < shapes.txt > suite_$v.txt; ./decisions_$v < grid.txt > grid_$v.txt; ./decisions_$v < sweep_shapes.txt > sw_$v.txt
  ./reqs_$v > reqs_$v.txt
done
echo "== suite automatic changes"; python3 $H/lookup.py suite_orig.txt suite_new.txt
echo "== grid automatic changes"; python3 $H/lookup.py grid_orig.txt grid_new.txt
echo "== sweep automatic changes"; python3 $H/lookup.py sw_orig.txt sw_new.txt
echo "== non-automatic requests (c2/c4/c8) that change, suite + grid"; cat <(diff suite_orig.txt suite_new.txt) <(diff grid_orig.txt grid_new.txt) | grep '^>' | grep -vc '^> c0' || true
echo "== explicit split-K table requests"; diff reqs_orig.txt reqs_new.txt || true
for a in "k f" "n b" "n f"; do set -- $a; echo "== layout B $1-major, out $2"
  for f in shapes.txt grid.txt; do diff <(./decisions_orig $(lay $1 $2) < $f) <(./decisions_new $(lay $1 $2) < $f) | grep '^>' | sort -u | cut -c1-170 || true; done
done
$H/build_tests.sh new tests_new cpu_tests_new > /dev/null 2>&1 && ./cpu_tests_new | tail -1
$H/build_tests.sh orig tests_cur cpu_tests_orig > /dev/null 2>&1 && ./cpu_tests_orig | tail -1
$H/build_tests.sh orig tests_new cpu_tests_orig_newtests > /dev/null 2>&1 && (./cpu_tests_orig_newtests | tail -3 || true)
