#!/usr/bin/env bash
# Session 40, call 9: call 5's final suite run again on the same build (the run-to-run spread of the
# floor count; not committed as gemm_bf16.*).
exec bash "$(dirname "$0")/call5.sh"
