#!/bin/bash
# build_tests.sh VARIANT_DIR TESTS_DIR OUT: the CPU test files of TESTS_DIR with VARIANT_DIR/sm90_heuristic.cpp ahead of the library copy
set -e
V=$1; T=$2; O=$3
g++ -std=c++20 -O1 -I/work/main/src -I/work/main/include -I/usr/local/cuda/include -I$T $T/*.cpp $V/sm90_heuristic.cpp \
  /tmp/s22fit/libgraphgemm.a -L/usr/local/cuda/lib64 -lgtest_main -lgtest -lcudart -lcublasLt -lcublas -lcuda -ldl -lpthread -lrt \
  -Wl,--trace-symbol=_ZN9graphgemm6detail4sm9012choose_splitERKNS1_12SplitRequestE -o $O
