#!/usr/bin/env bash
# Session 40, call 6: call 3's steps (every GPU test, memcheck / racecheck on the gemv tests) on the
# final rule's build (kGemv16* in sm90_heuristic.cpp).
B=${B:-build-probe/s40e} exec bash "$(dirname "$0")/call3.sh"
