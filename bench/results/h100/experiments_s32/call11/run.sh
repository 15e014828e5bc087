#!/usr/bin/env bash
# Session 32, call 11: the two TMA probes after they moved to one stage ring (tools/diag/tma_ring.cuh):
# the same figures as before? (tma_oob_probe: call 1; tma_stream_probe: experiments_s18/stream_probe)
set -u
b=build-probe/s32p; gunzip -f $b/*.gz; chmod +x $b/*
o=${OUT:-/tmp/out}; mkdir -p $o
$b/tma_oob_probe 4096 96 > $o/oob_96.txt 2>&1
$b/tma_stream_probe 4096 4096 64 > $o/stream_4096_64.txt 2>&1
$b/tma_stream_probe 4096 4096 128 >> $o/stream_4096_64.txt 2>&1
cat $o/*.txt
