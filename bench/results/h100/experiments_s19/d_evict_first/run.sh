#!/usr/bin/env bash
# Session 19, call 2: D's TMA stores with an L2 evict-first policy (createpolicy + .L2::cache_hint)
# against the current stores. Old (build-probe/s19a) and new (build-probe/s19b) benches alternating,
# two rounds each, square + llm + splitk, cuBLASLt beside ours in every run.
set -uo pipefail
cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
for v in s19a s19b; do gunzip -c build-probe/$v/bench/graphgemm_bench.gz > /tmp/gg_$v && chmod +x /tmp/gg_$v; done
for round in 1 2; do
  for v in s19a s19b; do
    /tmp/gg_$v --suites square,llm,splitk --dtypes bf16 --no-peak --out $OUT/${v}_r$round \
      --backends cublaslt,sm90 > $OUT/${v}_r$round.log 2>&1; echo "$v round $round rc $?"
  done
done
cd $OUT && tar czf results.tgz s19*_r* && ls
