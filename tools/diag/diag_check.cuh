// The standalone diagnostic tools' CUDA error check: print where and why, then exit.
#pragma once

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define DIAG_CHECK(x)                                                                           \
  do {                                                                                          \
    cudaError_t e_ = (x);                                                                       \
    if (e_ != cudaSuccess) {                                                                    \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));   \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)
