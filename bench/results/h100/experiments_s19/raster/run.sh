#!/usr/bin/env bash
# Session 19, call 1: tile raster order and group size (GemmOptions::sm90_raster_order / _group),
# never varied before (always 8 tiles along M). The automatic choice (groups of 8 along M) beside
# groups of 4 / 16 / 32 along M and 4 / 8 / 16 along N, cuBLASLt for scale; square + llm M >= 1024,
# two rounds (build-probe/s19a).
set -uo pipefail
cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
B=/tmp/gg_bench; gunzip -c build-probe/s19a/bench/graphgemm_bench.gz > $B && chmod +x $B
for round in 1 2; do
  $B --suites square,llm --min-m 1024 --dtypes bf16 --no-peak --out $OUT/r$round \
    --backends cublaslt,sm90,sm90+rm4,sm90+rm16,sm90+rm32,sm90+rn4,sm90+rn8,sm90+rn16 \
    > $OUT/r$round.log 2>&1; echo "round $round rc $?"
done
cd $OUT && tar czf results.tgz r1 r2 r1.log r2.log && ls
