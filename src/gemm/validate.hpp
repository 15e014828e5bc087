#pragma once
// Validation shared by every backend. Each check has its own message saying what is wrong and what
// to do. Nothing here touches the GPU, so it runs (and is tested) on machines without one.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

#include "graphgemm/gemm.hpp"

namespace graphgemm::detail {

// What a backend needs beyond a well-formed problem.
struct AlignmentRequirements {
  std::size_t operand_bytes = 16;  // A, B, C, D base pointers
  std::size_t ld_bytes = 0;        // leading dimension * element size; 0: no requirement
  const char* why = "";            // appended to alignment messages, e.g. "TMA needs 16-byte aligned rows"
  bool include_c = true;           // false: C is read with ordinary loads, element alignment suffices
};

// Shapes, dtypes, layouts, leading dimensions, vector lengths, beta/C. With `check_pointers`,
// also that every operand that has elements has a non-null pointer (at plan time pointers may be
// null: a plan is built for a problem, not for buffers).
[[nodiscard]] Status validate_problem(const GemmArgs& args, bool check_pointers);

// Pointer and leading-dimension alignment of A, B, C, D, and element alignment of the vectors.
[[nodiscard]] Status check_alignment(const GemmArgs& args, const AlignmentRequirements& req);

// Whether `args` is the problem `planned` was built for (everything but pointers, alpha, beta).
[[nodiscard]] Status check_same_problem(const GemmArgs& planned, const GemmArgs& args);

// Whether `args` can run through a kernel set up for `planned` with only its parameters changed
// (graph node updates): as check_same_problem, except that M may differ (scale_a then has M
// entries) and so may the leading dimensions of A, C and D.
[[nodiscard]] Status check_updatable_problem(const GemmArgs& planned, const GemmArgs& args);

// "bf16 x bf16 -> fp32"
[[nodiscard]] std::string describe_types(const GemmArgs& args);
// "M=128 N=4096 K=4096, A row-major (ld 4096), B column-major (ld 4096), D ld 4096, bias, beta·C"
[[nodiscard]] std::string describe_problem(const GemmArgs& args);

// What run() demands of a workspace's address: what cuBLASLt, our split-K buffers and the GEMM
// chains' tables need (cudaMalloc memory is).
inline constexpr std::size_t kWorkspaceAlignment = 256;

// That `stream` belongs to `device` (where `what`, "plan" or "chain", was built), on eager runs:
// cudaStreamGetDevice is illegal while a stream captures in global mode (seen on H100, CUDA 13.0:
// it invalidates the capture), so under capture a stream of another device fails at launch instead.
[[nodiscard]] Status check_stream_device(cudaStream_t stream, int device, const char* what);

}  // namespace graphgemm::detail
