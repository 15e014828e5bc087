#pragma once
#include <gtest/gtest.h>

#include <string>

#include "gpu_support.hpp"

// Every GPU test begins with this: without a device the test is reported as skipped, never passed.
#define GRAPHGEMM_REQUIRE_GPU()                                                 \
  do {                                                                          \
    std::string why_;                                                           \
    if (!::graphgemm::support::has_cuda_device(&why_))                         \
      GTEST_SKIP() << "skipped: no CUDA device (" << why_ << ")";               \
  } while (0)
