#pragma once
// D = beta · C + bias for K = 0, where A · B is an empty sum. Shared by every backend.

#include <cuda_runtime_api.h>

#include "graphgemm/gemm.hpp"

namespace graphgemm::detail {

// Enqueues the kernel; legal under stream capture. `args` must be valid with M, N >= 1.
[[nodiscard]] Status launch_k_zero_epilogue(const GemmArgs& args, cudaStream_t stream);

}  // namespace graphgemm::detail
