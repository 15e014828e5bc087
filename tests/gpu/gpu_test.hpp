#pragma once
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <string>

#include "gpu_support.hpp"

// Every GPU test begins with this: without a device the test is reported as skipped, never passed.
#define GRAPHGEMM_REQUIRE_GPU()                                                 \
  do {                                                                          \
    std::string why_;                                                           \
    if (!::graphgemm::support::has_cuda_device(&why_))                         \
      GTEST_SKIP() << "skipped: no CUDA device (" << why_ << ")";               \
  } while (0)

namespace graphgemm::testing {

inline bool is_hopper() {
  int major = 0, minor = 0;
  SUPPORT_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  SUPPORT_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0));
  return major == 9 && minor == 0;
}

// A non-blocking stream of the test's own, destroyed with it.
struct Stream {
  cudaStream_t s = nullptr;
  Stream() { SUPPORT_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); }
  ~Stream() { (void)cudaStreamDestroy(s); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
};

inline std::string capture_mode_name(cudaStreamCaptureMode m) {
  switch (m) {
    case cudaStreamCaptureModeGlobal: return "global";
    case cudaStreamCaptureModeThreadLocal: return "thread_local";
    case cudaStreamCaptureModeRelaxed: return "relaxed";
  }
  return "unknown";
}

}  // namespace graphgemm::testing

// GPU tests of graphgemm's own Hopper kernels: skipped, visibly, without a device or on another GPU.
#define GRAPHGEMM_REQUIRE_HOPPER()                 \
  GRAPHGEMM_REQUIRE_GPU();                         \
  if (!::graphgemm::testing::is_hopper()) GTEST_SKIP() << "skipped: the sm90 kernels need a Hopper GPU"
