#!/usr/bin/env bash
# Session 51, call 4: per CTA, when tail-only stream-K's CTAs finish their last main loop and hand
# off / store (sm90_trace built with sk_tail_only.patch applied: build-probe/s51/sm90_trace_sk).
set -u
T=build-probe/s51/sm90_trace_sk
SM90_TRACE_CTAS=1 timeout 60 $T 4096 4096 4096 128x256 streamk 132 > $OUT/ctas_sk4096.txt 2>&1; echo rc=$?
SM90_TRACE_CTAS=1 timeout 60 $T 4096 4096 4096 128x256 none 1 > $OUT/ctas_none4096.txt 2>&1; echo rc=$?
grep -E "per launch|last main|stored" $OUT/ctas_sk4096.txt $OUT/ctas_none4096.txt | grep -v " cta " 
