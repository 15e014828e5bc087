#!/usr/bin/env bash
# Session 22: each moved automatic choice of a heuristic refit, old and new forced in one bench
# binary ($B) beside automatic and cuBLASLt, two rounds; results under $OUT/TAG_<shape>_r<round>.
#   B=path/to/graphgemm_bench verify_moves.sh TAG LIST   (LIST: "shape old_kernel new_kernel" lines, # comments)
tag=$1 list=$2
for r in 1 2; do
  grep -v '^#' "$list" | while read shape old new; do
    timeout 60 $B --shape $shape --dtypes bf16 --no-peak --out $OUT/${tag}_${shape}_r$r \
      --backends "cublaslt,sm90,sm90=sm90_bf16_bf16_$old,sm90=sm90_bf16_bf16_$new" > $OUT/${tag}_${shape}_r$r.log 2>&1
    echo "round $r $shape rc $?"
  done
done
