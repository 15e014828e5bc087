#!/usr/bin/env bash
# Session 18, call 7: programmatic launch forced on / off against automatic, on the automatic
# choices of kernel and split (splitk suite and llm M <= 256), two rounds; the committed build
# (build-probe/s18b).
set -uo pipefail
cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
B=/tmp/gg_bench; gunzip -c build-probe/s18b/bench/graphgemm_bench.gz > $B && chmod +x $B
for round in 1 2; do
  $B --suites splitk,llm --max-m 256 --dtypes bf16 --no-peak --out $OUT/r$round \
    --backends cublaslt,sm90,sm90+pdl,sm90+nopdl > $OUT/r$round.log 2>&1; echo "round $round rc $?"
done
cd $OUT && tar czf results.tgz r1 r2 && ls
