#!/bin/bash
# build.sh VARIANT_DIR PROGRAM.cpp OUT : links VARIANT_DIR/sm90_heuristic.cpp ahead of the library copy
set -e
V=$1; P=$2; O=$3
g++ -std=c++20 -O1 -I/work/main/src -I/work/main/include -I/usr/local/cuda/include $P $V/sm90_heuristic.cpp \
  /tmp/s22fit/libgraphgemm.a -L/usr/local/cuda/lib64 -lcudart -lcublasLt -lcublas -lcuda -ldl -lpthread -lrt \
  -Wl,--trace-symbol=_ZN9graphgemm6detail4sm9011estimate_usERKNS1_10KernelInfoEllliNS_7kernels4sm909SplitModeEiii \
  -Wl,--trace-symbol=_ZN9graphgemm6detail4sm9012choose_splitERKNS1_12SplitRequestE -o $O
