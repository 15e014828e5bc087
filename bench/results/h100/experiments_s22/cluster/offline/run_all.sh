#!/bin/bash
# Session 22 offline 128x128 cluster-sum refit (helper). Reproduces every number of the report.
# Needs /tmp/s22fit/libgraphgemm.a (library copy, kernel table unchanged) and, in /tmp/s22cl:
# orig/sm90_heuristic.cpp (copy of /work/main HEAD's), new/ (orig + cluster.patch's heuristic part),
# tests_cur/ (main's tests/cpu), tests_new/ (+ the patch's test part), cells.tsv (= experiments_s22/serial/offline/cells.tsv),
# shapes.txt (111 suite), grid.txt (245), sweep_shapes.txt (call 8's 12), extra.txt (128x1024x16384).
# The decision dumps are tools/diag/heuristic_decisions.cpp (the same output as the decisions.cpp /
# decisions_layouts.cpp this ran with, checked in session 24). SKIP_BUILD=1 reuses the binaries.
set -e
H=/work/main/bench/results/h100/experiments_s22/offline_common  # build.sh, build_tests.sh, cells.cpp, reqs.cpp, lookup.py (one copy for the refits)
lay() { echo "$([ "$1" = n ] && echo kn || echo nk) $([ "$2" = f ] && echo fp32 || echo bf16)"; }  # B k / n-major, out b / f -> heuristic_decisions args
cd /tmp/s22cl
if [ -z "$SKIP_BUILD" ]; then
  for v in orig new; do
    for p in cells reqs; do $H/build.sh $v $H/$p.cpp ${p}_$v 2>&1 | grep "definition of"; done  # definitions from the copy's .o
    $H/build.sh $v /work/main/tools/diag/heuristic_decisions.cpp decisions_$v 2>&1 | grep "definition of"
  done
  $H/build_tests.sh new tests_new cpu_tests_new 2>&1 | grep "definition of"
  $H/build_tests.sh orig tests_cur cpu_tests_orig > /dev/null 2>&1
  $H/build_tests.sh orig tests_new cpu_tests_orig_newtests > /dev/null 2>&1
fi
./cells_orig < cells.tsv > pred_orig.tsv; ./cells_new < cells.tsv > pred_new.tsv
echo "== 128x128 cluster cells, 8:c8"; python3 table.py
echo "== slices == cluster cells by tile and k-blocks a slice (measured - estimate), before / after"
python3 errs.py pred_orig.tsv > errs_orig.txt; python3 errs.py pred_new.tsv > errs_new.txt; paste -d'|' errs_orig.txt errs_new.txt | grep "^128x128"
echo "== other changed estimates (128x128, workspace + clusters of 8)"
paste <(cut -f1-9 pred_orig.tsv) <(cut -f9 pred_new.tsv) | awk -F'\t' '$9!=$10 && $5!=8' | awk -F'\t' '{printf "%s %s:c%s meas %.2f before %.2f after %.2f\n",$2,$5,$6,$7,$9,$10}' | sort -u
for v in orig new; do
  ./decisions_$v < shapes.txt > suite_$v.txt; ./decisions_$v < grid.txt > grid_$v.txt
  ./decisions_$v < sweep_shapes.txt > sw_$v.txt; ./decisions_$v < extra.txt > extra_$v.txt; ./reqs_$v > reqs_$v.txt
done
echo "== suite automatic changes"; python3 $H/lookup.py suite_orig.txt suite_new.txt
echo "== grid automatic changes"; python3 $H/lookup.py grid_orig.txt grid_new.txt
echo "== sweep automatic changes"; python3 $H/lookup.py sw_orig.txt sw_new.txt
echo "== 128x1024x16384 (CPU test's cluster sum)"; python3 $H/lookup.py extra_orig.txt extra_new.txt
echo "== forced split_k_cluster 2/4/8 choices (kernel, slices) that change: suite"
diff <(grep -v '^c0' suite_orig.txt | awk '{print $1,$2,$3,$4,$6,$8}') <(grep -v '^c0' suite_new.txt | awk '{print $1,$2,$3,$4,$6,$8}') || true
echo "== ... grid (lines)"; diff <(grep -v '^c0' grid_orig.txt | awk '{print $1,$2,$3,$4,$6,$8}') <(grep -v '^c0' grid_new.txt | awk '{print $1,$2,$3,$4,$6,$8}') | grep -c '^>' || true
echo "== split-K table requests"; diff reqs_orig.txt reqs_new.txt || true
for a in "k f" "n b" "n f"; do set -- $a; echo "== layout B $1-major, out $2 (automatic, kernel/mode/slices/cluster)"
  for f in shapes.txt grid.txt; do echo "-- $f"; diff <(./decisions_orig $(lay $1 $2) < $f | grep '^c0' | awk '{print $2,$3,$4,$6,$8}') <(./decisions_new $(lay $1 $2) < $f | grep '^c0' | awk '{print $2,$3,$4,$6,$8}') | grep '^[<>]' | awk '{print $1,$3,$4,$5,$6}' | sed 's/sm90_[a-z0-9]*_[a-z0-9]*_//' | sort | uniq -c || true; done
done
echo "== CPU tests"; ./cpu_tests_new | tail -1; ./cpu_tests_orig | tail -1; (./cpu_tests_orig_newtests | grep "FAILED  \]" | head -1 || true)
