#pragma once
// Turning CUDA and cuBLASLt return codes into Status values. Every call is checked.

#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include <string>

#include "graphgemm/status.hpp"

namespace graphgemm::detail {

[[nodiscard]] Status cuda_status(cudaError_t err, const char* expr, const char* file, int line);
[[nodiscard]] Status cublas_status(cublasStatus_t err, const char* expr, const char* file, int line);

}  // namespace graphgemm::detail

#define GRAPHGEMM_CUDA_TRY(expr)                                                      \
  do {                                                                                \
    const cudaError_t graphgemm_err_ = (expr);                                        \
    if (graphgemm_err_ != cudaSuccess)                                                \
      return ::graphgemm::detail::cuda_status(graphgemm_err_, #expr, __FILE__, __LINE__); \
  } while (0)

#define GRAPHGEMM_CUBLAS_TRY(expr)                                                      \
  do {                                                                                  \
    const cublasStatus_t graphgemm_err_ = (expr);                                       \
    if (graphgemm_err_ != CUBLAS_STATUS_SUCCESS)                                        \
      return ::graphgemm::detail::cublas_status(graphgemm_err_, #expr, __FILE__, __LINE__); \
  } while (0)

#define GRAPHGEMM_TRY(expr)                                 \
  do {                                                      \
    ::graphgemm::Status graphgemm_status_ = (expr);         \
    if (!graphgemm_status_.ok()) return graphgemm_status_;  \
  } while (0)
